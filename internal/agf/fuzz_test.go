package agf

import (
	"strings"
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

// FuzzLint: any input either fails to parse with a positioned error or
// lints without panicking, every finding placed inside the file.
func FuzzLint(f *testing.F) {
	for _, s := range []string{"schema_version: \"1.0.0\"\nmetadata: {id: a}\n", "a: &x [1]\nb: *x\n", "[[[", "execution_policy:\n  id: agf.batch\n  config: {agent: a, input_mapping: {x: parent.input.[]}}\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		ds, err := Lint("f.agf.yaml", src, Options{})
		if err != nil {
			return
		}
		// YAML breaks lines at \n, \r\n and a lone \r, as editors do.
		lines := 1 + strings.Count(strings.ReplaceAll(string(src), "\r\n", "\n"), "\n") + strings.Count(strings.ReplaceAll(string(src), "\r\n", ""), "\r")
		for _, d := range ds {
			if d.Start.Line < 0 || d.Start.Line > lines+1 {
				t.Fatalf("finding at line %d of a %d-line file: %+v", d.Start.Line, lines, d)
			}
		}
	})
}
