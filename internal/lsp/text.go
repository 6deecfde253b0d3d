package lsp

import (
	"bytes"
	"net/url"
	"path/filepath"
	"sort"
	"unicode/utf16"
	"unicode/utf8"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// Positions: LSP counts lines from 0 and columns in UTF-16 code units;
// lint counts both from 1 and columns in code points; the assist package
// and the overlay use byte offsets. Lines end at "\n" (a "\r\n" line's
// "\r" is its last character, as lint sees it too).

// lineStart returns the byte offset where 0-based line starts, clamped to
// len(text) past the last line.
func lineStart(text []byte, line int) int {
	off := 0
	for ; line > 0; line-- {
		i := bytes.IndexByte(text[off:], '\n')
		if i < 0 {
			return len(text)
		}
		off += i + 1
	}
	return off
}

// lineEnd is the offset of the "\n" ending the line that holds off (or
// len(text)).
func lineEnd(text []byte, off int) int {
	if i := bytes.IndexByte(text[off:], '\n'); i >= 0 {
		return off + i
	}
	return len(text)
}

// offsetOf turns an LSP position into a byte offset, clamped to the line's
// end (a client may name a column past it).
func offsetOf(text []byte, p protocol.Position) int {
	off := lineStart(text, int(p.Line))
	end := lineEnd(text, off)
	for units := int(p.Character); units > 0 && off < end; {
		r, size := utf8.DecodeRune(text[off:end])
		n := utf16.RuneLen(r)
		if n < 0 {
			n = 1 // an invalid byte counts as one unit (U+FFFD)
		}
		if n > units {
			break
		}
		units -= n
		off += size
	}
	return off
}

// positionOf turns a byte offset into an LSP position (one position: a
// text that places many makes a lines index).
func positionOf(text []byte, off int) protocol.Position {
	off = min(max(off, 0), len(text))
	start := bytes.LastIndexByte(text[:off], '\n') + 1
	return protocol.Position{Line: uint32(bytes.Count(text[:start], []byte{'\n'})), Character: uint32(utf16Len(text[start:off]))}
}

// lines is a text's line index, made in one pass: placing many ranges in
// one text (a run's findings, a completion's items) costs a binary search
// each, not a count from the top of the text.
type lines struct {
	text   []byte
	starts []int // the offset where each line starts; starts[0] is 0
}

func newLines(text []byte) *lines {
	starts := make([]int, 1, bytes.Count(text, []byte{'\n'})+1)
	for off := 0; ; {
		i := bytes.IndexByte(text[off:], '\n')
		if i < 0 {
			break
		}
		off += i + 1
		starts = append(starts, off)
	}
	return &lines{text: text, starts: starts}
}

// position is positionOf through the index.
func (l *lines) position(off int) protocol.Position {
	off = min(max(off, 0), len(l.text))
	line := sort.SearchInts(l.starts, off+1) - 1 // the last line starting at or before off
	start := l.starts[line]
	return protocol.Position{Line: uint32(line), Character: uint32(utf16Len(l.text[start:off]))}
}

// rangeOf is the LSP range of bytes [start, end).
func (l *lines) rangeOf(start, end int) protocol.Range {
	return protocol.Range{Start: l.position(start), End: l.position(end)}
}

// lintOffset turns lint's 1-based line and code-point column into a byte
// offset (clamped to the line's end, and to the text's end past its last
// line).
func (l *lines) lintOffset(line, col int) int {
	if line < 1 || line > len(l.starts) {
		return len(l.text)
	}
	off := l.starts[line-1]
	end := lineEnd(l.text, off)
	for ; col > 1 && off < end; col-- {
		_, size := utf8.DecodeRune(l.text[off:end])
		off += size
	}
	return off
}

// utf16Len counts the UTF-16 code units of b.
func utf16Len(b []byte) int {
	n := 0
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if k := utf16.RuneLen(r); k > 0 {
			n += k
		} else {
			n++
		}
		b = b[size:]
	}
	return n
}

// rangeOf is the LSP range of bytes [start, end) of text (one range: a
// text that places many makes a lines index).
func rangeOf(text []byte, start, end int) protocol.Range {
	return protocol.Range{Start: positionOf(text, start), End: positionOf(text, end)}
}

// pathOf is the clean absolute path a file: URI names; ok is false for
// another scheme (an untitled buffer), which wop does not lint.
func pathOf(u protocol.DocumentURI) (string, bool) {
	parsed, err := url.Parse(string(u))
	if err != nil || parsed.Scheme != "file" || parsed.Path == "" {
		return "", false
	}
	p := filepath.FromSlash(parsed.Path)
	if len(p) > 2 && p[0] == '\\' && p[2] == ':' { // Windows: /C:/x
		p = p[1:]
	}
	if !filepath.IsAbs(p) {
		return "", false
	}
	return filepath.Clean(p), true
}

// uriOf is a path's file: URI.
func uriOf(path string) protocol.DocumentURI { return uri.File(path) }
