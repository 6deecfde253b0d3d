package jsonpos

import (
	"errors"
	"fmt"
)

// PlaceError is a document a tool refuses to rewrite, at a line and column.
type PlaceError struct {
	Pos       Position
	Msg       string
	Duplicate bool // a member written twice, rather than a syntax error
}

func (e *PlaceError) Error() string {
	return fmt.Sprintf("%d:%d: %s", e.Pos.Line, e.Pos.Column, e.Msg)
}

// ParseUnique parses src like Parse and also refuses a member written twice:
// a tool that rewrites the document would keep one copy and silently drop
// the other, so the author must choose. A syntax error or a duplicate is a
// *PlaceError.
func ParseUnique(src []byte) (*Doc, error) {
	doc, err := Parse(src)
	if pe := (*Error)(nil); errors.As(err, &pe) {
		return nil, &PlaceError{Pos: PositionOf(src, pe.Offset), Msg: pe.Msg}
	}
	if err != nil {
		return nil, err
	}
	if len(doc.Duplicates) > 0 {
		d := doc.Duplicates[0]
		where := "the top-level object"
		if d.Pointer != "" {
			where = d.Pointer
		}
		return nil, &PlaceError{Pos: doc.Position(d.At), Duplicate: true,
			Msg: fmt.Sprintf("member %q appears twice in %s", d.Name, where)}
	}
	return doc, nil
}
