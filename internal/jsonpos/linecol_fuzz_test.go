package jsonpos

import "testing"

// FuzzLineCol checks the offset → line:col mapping on arbitrary text: lines
// and columns are 1-based and never decrease along the file.
func FuzzLineCol(f *testing.F) {
	f.Add([]byte("a\nbé\r\n\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		lines := lineStarts(src)
		prev := Position{1, 1}
		for off := 0; off <= len(src); off++ {
			p := LineCol(src, lines, off)
			if p.Line < 1 || p.Column < 1 || p.Line < prev.Line || p.Line == prev.Line && p.Column < prev.Column {
				t.Fatalf("offset %d -> %v after %v", off, p, prev)
			}
			prev = p
		}
	})
}
