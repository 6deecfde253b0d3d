package suggest

import "testing"

func TestNearest(t *testing.T) {
	cands := []string{"required", "properties", "additionalProperties", "toolAllowlist"}
	tests := []struct {
		word, want string
		ok         bool
	}{
		{"requried", "required", true},
		{"additionalProperites", "additionalProperties", true},
		{"toolAllowList", "toolAllowlist", true},
		{"zzzzzz", "", false},
	}
	for _, tt := range tests {
		got, ok := Nearest(tt.word, cands, 2)
		if got != tt.want || ok != tt.ok {
			t.Errorf("Nearest(%q) = %q, %v; want %q, %v", tt.word, got, ok, tt.want, tt.ok)
		}
	}
}
