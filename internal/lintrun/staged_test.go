package lintrun

import (
	"slices"
	"strings"
	"testing"
)

// TestParseNameStatus: deletions and renames' old names are removed, renames'
// and copies' new names added, other statuses and a cut record ignored.
func TestParseNameStatus(t *testing.T) {
	for _, tc := range []struct {
		in             string
		removed, added []string
	}{
		{"", nil, nil},
		{"D\x00prompts/notes.md\x00", []string{"prompts/notes.md"}, nil},
		{"R087\x00a/old.md\x00b/new name.md\x00D\x00x\x00", []string{"a/old.md", "x"}, []string{"b/new name.md"}},
		{"C100\x00src\x00copy\x00M\x00kept\x00", nil, []string{"copy"}},
		{"R100\x00only-old\x00", nil, nil}, // cut short: dropped
		{"D\x00", nil, nil},
	} {
		got := ParseNameStatus(tc.in)
		if !slices.Equal(got.Removed, tc.removed) || !slices.Equal(got.Added, tc.added) {
			t.Errorf("ParseNameStatus(%q) = %q, %q; want %q, %q", tc.in, got.Removed, got.Added, tc.removed, tc.added)
		}
	}
}

// FuzzParseNameStatus: any bytes parse without panic, and every path
// returned is one of the input's NUL-separated fields.
func FuzzParseNameStatus(f *testing.F) {
	f.Add("R087\x00a/old.md\x00b/new.md\x00D\x00x\x00")
	f.Add("D\x00\x00R\x00")
	f.Fuzz(func(t *testing.T, in string) {
		s := ParseNameStatus(in)
		fields := strings.Split(in, "\x00")
		for _, p := range append(s.Removed, s.Added...) {
			if !slices.Contains(fields, p) {
				t.Fatalf("path %q is no field of %q", p, in)
			}
		}
		if n := len(s.Removed) + len(s.Added); n > len(fields) {
			t.Fatalf("%d paths from %d fields", n, len(fields))
		}
	})
}
