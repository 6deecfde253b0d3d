package jsonpos

import (
	"bytes"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// Position is a 1-based line and column; the column counts Unicode code
// points, as editors and SARIF's default "utf16CodeUnits" rarely disagree on
// manifests and code points are what a person counts.
type Position struct {
	Line, Column int
}

func lineStarts(src []byte) []int {
	starts := make([]int, 1, 1+bytes.Count(src, []byte{'\n'}))
	for i := 0; ; {
		j := bytes.IndexByte(src[i:], '\n')
		if j < 0 {
			return starts
		}
		i += j + 1
		starts = append(starts, i)
	}
}

// linesOf finds src's line starts once, when first asked (safe for
// concurrent use).
func linesOf(src []byte) func() []int {
	return sync.OnceValue(func() []int { return lineStarts(src) })
}

// LineCol maps a byte offset to its position. Offsets past the end map to
// the end of the file.
func LineCol(src []byte, lines []int, off int) Position {
	if off > len(src) {
		off = len(src)
	}
	if off < 0 {
		off = 0
	}
	line := sort.Search(len(lines), func(i int) bool { return lines[i] > off }) - 1
	// An offset inside a multi-byte character belongs to that character.
	for off > lines[line] && off < len(src) && !utf8.RuneStart(src[off]) {
		off--
	}
	col := utf8.RuneCount(src[lines[line]:off]) + 1
	return Position{Line: line + 1, Column: col}
}

// Offset maps a position back to a byte offset; it is the inverse of LineCol
// for every offset that starts a code point.
func Offset(src []byte, lines []int, pos Position) int {
	if pos.Line < 1 || pos.Line > len(lines) {
		return -1
	}
	off := lines[pos.Line-1]
	for n := 1; n < pos.Column && off < len(src); n++ {
		_, size := utf8.DecodeRune(src[off:])
		off += size
	}
	return off
}

// Position maps a byte offset in the document to its line and column.
func (d *Doc) Position(off int) Position { return LineCol(d.Src, d.lines(), off) }

// PositionOf maps a source offset of any file (not only a parsed document) to
// its line and column.
func PositionOf(src []byte, off int) Position { return LineCol(src, lineStarts(src), off) }

// Lookup returns the value at an RFC 6901 pointer, or nil when there is none.
func (d *Doc) Lookup(ptr string) *Value {
	v := d.Root
	if ptr == "" {
		return v
	}
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch v.Kind {
		case Object:
			v = v.Get(tok)
		case Array:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(v.Items) {
				return nil
			}
			v = v.Items[i]
		default:
			return nil
		}
		if v == nil {
			return nil
		}
	}
	return v
}

// Locate returns the position of the value at ptr. When the pointer names a
// member that does not exist (a missing required property, say), it falls
// back to the deepest existing ancestor, which is where the fix goes.
func (d *Doc) Locate(ptr string) Position {
	for {
		if v := d.Lookup(ptr); v != nil {
			return d.Position(v.Start)
		}
		i := strings.LastIndexByte(ptr, '/')
		if i < 0 {
			return Position{Line: 1, Column: 1}
		}
		ptr = ptr[:i]
	}
}

// LocateName returns the position of the member name at ptr (the `"key"`
// rather than its value), which is where a finding about the key belongs.
func (d *Doc) LocateName(ptr string) Position {
	i := strings.LastIndexByte(ptr, '/')
	if i < 0 {
		return d.Locate(ptr)
	}
	parent := d.Lookup(ptr[:i])
	name := strings.ReplaceAll(strings.ReplaceAll(ptr[i+1:], "~1", "/"), "~0", "~")
	if parent != nil && parent.Kind == Object {
		for _, m := range parent.Members {
			if m.Name == name {
				return d.Position(m.NameAt)
			}
		}
	}
	return d.Locate(ptr)
}
