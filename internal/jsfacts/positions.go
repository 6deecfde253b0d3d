package jsfacts

import (
	"sort"
	"unsafe"

	"github.com/tdewolff/parse/v2/js"
)

// source is a parsed module: its path, buffer and line ends.
type source struct {
	name  string
	buf   []byte
	lines []int // offsets of '\n'
}

func newSource(name string, buf []byte) source {
	s := source{name: name, buf: buf}
	for i, c := range buf {
		if c == '\n' {
			s.lines = append(s.lines, i)
		}
	}
	return s
}

// lineOf returns where a slice of a parsed buffer lies: the module and its
// 1-based line; the zero Pos when b is in none (a name the parser made
// up). The pointers are only compared, never dereferenced.
func (a *analysis) lineOf(b []byte) Pos {
	if len(b) == 0 {
		return Pos{}
	}
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	for _, s := range a.sources {
		if len(s.buf) == 0 {
			continue
		}
		base := uintptr(unsafe.Pointer(unsafe.SliceData(s.buf)))
		if p >= base && p < base+uintptr(len(s.buf)) {
			return Pos{File: s.name, Line: sort.SearchInts(s.lines, int(p-base)) + 1}
		}
	}
	return Pos{}
}

// exprLine is the line of an expression: of its last member name or
// literal, the part nearest what it reads.
func (a *analysis) exprLine(e js.IExpr) Pos {
	for range 64 {
		switch x := e.(type) {
		case *js.DotExpr:
			if l, ok := literal(x.Y); ok {
				return a.lineOf(l.Data)
			}
			e = x.X
		case *js.IndexExpr:
			if l, ok := literal(x.Y); ok {
				return a.lineOf(l.Data)
			}
			e = x.X
		case *js.CallExpr:
			e = x.X
		case *js.GroupExpr:
			e = x.X
		case *js.UnaryExpr:
			e = x.X
		case *js.BinaryExpr:
			e = x.X
		case *js.Var:
			return a.lineOf(x.Data) // its declaration: the best the AST keeps
		default:
			if l, ok := literal(e); ok {
				return a.lineOf(l.Data)
			}
			return Pos{}
		}
	}
	return Pos{}
}
