package jsonpos

import (
	"errors"
	"testing"
)

func TestParseUnique(t *testing.T) {
	tests := []struct {
		name, src, want string
		duplicate       bool
	}{
		{"top level", "{\n  \"a\": 1,\n  \"a\": 2\n}", `3:3: member "a" appears twice in the top-level object`, true},
		{"nested", `{"r": {"e": 1, "e": 2}}`, `1:16: member "e" appears twice in /r`, true},
		{"syntax", "{\n  \"a\": ,\n}", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseUnique([]byte(tt.src))
			var pe *PlaceError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want a *PlaceError", err)
			}
			if pe.Duplicate != tt.duplicate || (tt.want != "" && err.Error() != tt.want) {
				t.Errorf("err = %q (duplicate %v), want %q (duplicate %v)", err, pe.Duplicate, tt.want, tt.duplicate)
			}
		})
	}
	if _, err := ParseUnique([]byte(`{"a": {"a": 1}}`)); err != nil {
		t.Errorf("a name reused at another level: %v", err)
	}
}
