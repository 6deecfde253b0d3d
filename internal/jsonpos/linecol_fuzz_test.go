package jsonpos

import (
	"slices"
	"testing"
)

// FuzzLineCol checks the offset → line:col mapping on arbitrary text: lines
// start after every newline, lines and columns are 1-based and never
// decrease along the file.
func FuzzLineCol(f *testing.F) {
	f.Add([]byte("a\nbé\r\n\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		lines := lineStarts(src)
		want := []int{0} // a line starts after every newline
		for i, b := range src {
			if b == '\n' {
				want = append(want, i+1)
			}
		}
		if !slices.Equal(lines, want) {
			t.Fatalf("lineStarts = %v, want %v", lines, want)
		}
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
