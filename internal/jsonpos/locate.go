package jsonpos

import "strconv"

// Cursor is what surrounds an offset of a loose document: the container
// the offset is in, and the member name or value at it.
type Cursor struct {
	// Path holds the pointer tokens (unescaped) from the root to Parent.
	Path []string
	// Parent is the object or array holding the offset; nil when the offset
	// is at the top-level value or outside it.
	Parent *Loose
	// OnName is true at a member name, or in an object where a name goes.
	OnName bool
	// Name is the member name (in an object) or item index (in an array)
	// whose name or value is at the offset; "" at a fresh name.
	Name string
	// Token is the scalar under the offset: a member name (OnName) or a
	// string, number or literal value. nil when there is none (the offset
	// is where a name or value would be written).
	Token *Loose
	// Value is true when the offset is where a value goes or is (after a
	// colon, or an array item), so completing there writes a value.
	Value bool
}

// Pointer returns the tokens of the value the cursor is at: Path and Name.
func (c Cursor) Pointer() []string {
	if c.Parent == nil {
		return c.Path
	}
	return append(c.Path[:len(c.Path):len(c.Path)], c.Name)
}

// within reports whether off touches v: inside it, or just before its
// first or after its last byte (the cursor of an editor sits between
// bytes, and one just past a word is still "on" it).
func (v *Loose) within(off int) bool { return v != nil && off >= v.Start && off <= v.End }

// inside reports whether off is inside container v's brackets.
func (v *Loose) inside(off int) bool {
	return off > v.Start && (off < v.End || !v.Closed && off == v.End)
}

// Locate finds what is at offset off of the loose document root (parsed
// from src). The work is proportional to the depth and the widths of the
// containers passed through.
func Locate(src []byte, root *Loose, off int) Cursor {
	var c Cursor
	v := root
	if v == nil || !v.within(off) {
		return c
	}
	for depth := 0; depth <= MaxDepth; depth++ {
		if v.Kind != Object && v.Kind != Array || !v.inside(off) {
			if c.Parent == nil {
				c.Token, c.Value = scalar(v), true
			}
			return c
		}
		if c.Parent != nil {
			c.Path = append(c.Path, c.Name)
		}
		c.Parent, c.Name, c.OnName, c.Token, c.Value = v, "", false, nil, false
		next := locateIn(src, v, off, &c)
		if next == nil {
			return c
		}
		v = next
	}
	return c
}

// scalar returns v when it is a scalar, else nil.
func scalar(v *Loose) *Loose {
	if v == nil || v.Kind == Object || v.Kind == Array {
		return nil
	}
	return v
}

// locateIn fills c for off inside container v, and returns the container
// to descend into, if off is inside a nested one.
func locateIn(src []byte, v *Loose, off int, c *Cursor) *Loose {
	if v.Kind == Array {
		return locateItem(src, v, off, c)
	}
	for _, m := range v.Members {
		if m.Name.within(off) && (m.Colon < 0 || off <= m.Colon) {
			c.OnName, c.Name, c.Token = true, m.Name.Str, m.Name
			return nil
		}
		if m.Value != nil && m.Value.within(off) && off > m.Colon {
			c.Name, c.Value = m.Name.Str, true
			if m.Value.Kind == Object || m.Value.Kind == Array {
				if m.Value.inside(off) {
					return m.Value
				}
				return nil
			}
			c.Token = m.Value
			return nil
		}
	}
	// Between tokens: after a colon a value goes, else a name.
	prev := prevByte(src, off, v.Start)
	if prev == ':' {
		for _, m := range v.Members {
			if m.Colon >= 0 && m.Colon < off && (m.Value == nil || m.Value.Start >= off) {
				c.Name = m.Name.Str
			}
		}
		c.Value = true
		return nil
	}
	c.OnName = prev == '{' || prev == ','
	return nil
}

func locateItem(src []byte, v *Loose, off int, c *Cursor) *Loose {
	c.Value = true
	n := 0
	for i, it := range v.Items {
		if it.within(off) {
			c.Name = strconv.Itoa(i)
			if it.Kind == Object || it.Kind == Array {
				if it.inside(off) {
					return it
				}
				return nil
			}
			c.Token = it
			return nil
		}
		if it.End <= off {
			n = i + 1
		}
	}
	c.Name = strconv.Itoa(n)
	if p := prevByte(src, off, v.Start); p != '[' && p != ',' {
		c.Value = false // after an item, before its comma: nothing goes here
	}
	return nil
}

// prevByte returns the last byte before off, at or after floor, that is not
// white space (0 when none).
func prevByte(src []byte, off, floor int) byte {
	for i := min(off, len(src)) - 1; i >= floor && i >= 0; i-- {
		switch src[i] {
		case ' ', '\t', '\n', '\r':
			continue
		}
		return src[i]
	}
	return 0
}
