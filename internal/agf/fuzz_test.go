package agf

import (
	"testing"
)

// FuzzParsePath: an accepted path prints back to exactly its input, and
// every segment is an identifier or [].
func FuzzParsePath(f *testing.F) {
	for _, s := range []string{"parent.input.q", "a.output.items.[].v", "x..y", "parent.input.[]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParsePath(s)
		if err != nil {
			return
		}
		if p.String() != s {
			t.Fatalf("%q parsed to %q", s, p.String())
		}
		if !isIdent(p.Root) || (p.Side != "input" && p.Side != "output") || len(p.Segments) == 0 {
			t.Fatalf("%q: %+v", s, p)
		}
		for _, seg := range p.Segments {
			if seg != "[]" && !isIdent(seg) {
				t.Fatalf("%q: bad segment %q", s, seg)
			}
		}
	})
}
