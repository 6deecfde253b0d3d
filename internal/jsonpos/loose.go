package jsonpos

import (
	"bytes"
	"encoding/json"
	"slices"
)

// A document an editor holds is often not JSON: the author is half way
// through typing it ({"kind": "). ParseLoose reads such a buffer as far as
// it makes sense, never failing, so that the value and member name around
// the cursor can still be found (Locate). It is for editor features only:
// lint and build parse strictly (Parse).

// Loose is a value of a possibly broken JSON document.
type Loose struct {
	Kind    Kind
	Str     string // String: the decoded text; a bare word (Null, Bool or a typo): as written
	Start   int    // offset of the value's first byte
	End     int    // offset just past its last byte (for an unclosed string: the end of its line)
	Closed  bool   // a string has its closing quote, a container its closing bracket
	Members []LooseMember
	Items   []*Loose
}

// LooseMember is one name of a loose object, with its value if one was
// written.
type LooseMember struct {
	Name *Loose // a String node (quoted or a bare word)
	// Colon is the offset of the ':' after the name, -1 when none yet.
	Colon int
	Value *Loose // nil when no value has been written yet
}

// maxLooseNodes bounds the nodes one ParseLoose builds (some 25 MB): a
// 5 MB buffer of "1,1,1,..." must not cost 150 MB on every keystroke. A
// manifest at the registry's 256 KB ceiling has some 20,000. Past the
// bound the rest of the document is not read.
const maxLooseNodes = 1 << 18

// ParseLoose reads src as JSON, forgiving what is missing: an unclosed
// string ends at the end of its line, an unclosed container at the end of
// the document, a member without a value has a nil Value, stray bytes are
// skipped. Nesting deeper than MaxDepth is skipped over. It never fails; a
// document without any value gives nil. Time and memory are linear in
// len(src).
func ParseLoose(src []byte) *Loose {
	p := &looseParser{src: src}
	return p.value(0)
}

type looseParser struct {
	src   []byte
	pos   int
	nodes int
	slab  []Loose // nodes are carved from here: one allocation per 128

	// The members and items of the containers being read are gathered
	// here and copied out when each ends: one allocation of the right size
	// per container instead of append's regrowth.
	members []LooseMember
	items   []*Loose
}

func (p *looseParser) node(v Loose) *Loose {
	if len(p.slab) == 0 {
		p.slab = make([]Loose, 128)
	}
	n := &p.slab[0]
	p.slab = p.slab[1:]
	*n = v
	return n
}

func (p *looseParser) space() {
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *looseParser) full() bool {
	p.nodes++
	if p.nodes > maxLooseNodes {
		p.pos = len(p.src)
		return true
	}
	return false
}

// value reads the value at p.pos; nil (consuming nothing) when there is
// none there: the end, or a delimiter.
func (p *looseParser) value(depth int) *Loose {
	p.space()
	if p.pos >= len(p.src) || p.full() {
		return nil
	}
	switch c := p.src[p.pos]; {
	case c == '{' || c == '[':
		if depth >= MaxDepth {
			return p.skipNested()
		}
		if c == '{' {
			return p.object(depth)
		}
		return p.array(depth)
	case c == '"':
		return p.str()
	case c == '}' || c == ']' || c == ',' || c == ':':
		return nil
	}
	return p.word()
}

// word reads a number, true, false, null, or a bare word an author is
// typing where a string belongs.
func (p *looseParser) word() *Loose {
	start := p.pos
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || c == ':' || c == '{' || c == '}' || c == '[' || c == ']' || c == '"' {
			break
		}
		p.pos++
	}
	if p.pos == start { // cannot happen (value handles every delimiter), but never loop
		p.pos++
	}
	text := string(p.src[start:p.pos])
	v := p.node(Loose{Kind: Null, Str: text, Start: start, End: p.pos, Closed: true})
	switch c := text[0]; {
	case text == "true" || text == "false":
		v.Kind, v.Str = Bool, text
	case c == '-' || c >= '0' && c <= '9':
		v.Kind = Number
	case text != "null":
		v.Kind = String // a bare word: what the author meant as a string
		v.Closed = false
	}
	return v
}

// str reads a string literal; an unclosed one ends at the end of its line
// (a JSON string cannot hold a raw line break).
func (p *looseParser) str() *Loose {
	start := p.pos
	closed, escaped := p.skipString()
	v := p.node(Loose{Kind: String, Start: start, End: p.pos, Closed: closed})
	body := p.src[start+1 : p.pos]
	if closed {
		body = body[:len(body)-1]
	}
	v.Str = string(body)
	if escaped {
		v.Str = unquoteLoose(v.Str)
	}
	return v
}

// skipString moves past the string literal at p.pos, reporting whether it
// has its closing quote and whether it holds an escape.
func (p *looseParser) skipString() (closed, escaped bool) {
	p.pos++
	for p.pos < len(p.src) {
		i := bytes.IndexAny(p.src[p.pos:], "\"\\\n\r")
		if i < 0 {
			p.pos = len(p.src)
			break
		}
		p.pos += i
		switch p.src[p.pos] {
		case '\\':
			escaped = true
			p.pos = min(p.pos+2, len(p.src))
			continue
		case '"':
			p.pos++
			return true, escaped
		}
		break // a line break: the string is unclosed
	}
	return false, escaped
}

// unquoteLoose decodes a string literal's body as JSON does, keeping it as
// written when it does not decode (a half-typed escape).
func unquoteLoose(body string) string {
	var s string
	if json.Unmarshal([]byte(`"`+body+`"`), &s) == nil {
		return s
	}
	return body
}

func (p *looseParser) object(depth int) *Loose {
	v := p.node(Loose{Kind: Object, Start: p.pos})
	p.pos++
	mark := len(p.members)
	defer func() {
		v.Members = slices.Clone(p.members[mark:])
		p.members = p.members[:mark]
	}()
	for {
		p.space()
		if p.pos >= len(p.src) {
			v.End = p.pos
			return v
		}
		switch p.src[p.pos] {
		case '}':
			p.pos++
			v.End, v.Closed = p.pos, true
			return v
		case ']': // a bracket that closes an outer array: leave it to that
			v.End = p.pos
			return v
		case ',', ':':
			p.pos++
			continue
		}
		name := p.value(depth + 1)
		if name == nil {
			p.pos = len(p.src) // only the node budget stops value here
			continue
		}
		if name.Kind != String { // {1: ...} or {{: hold the place, take no name
			continue
		}
		m := LooseMember{Name: name, Colon: -1}
		p.space()
		if p.pos < len(p.src) && p.src[p.pos] == ':' {
			m.Colon = p.pos
			p.pos++
			m.Value = p.value(depth + 1)
		}
		p.members = append(p.members, m)
	}
}

func (p *looseParser) array(depth int) *Loose {
	v := p.node(Loose{Kind: Array, Start: p.pos})
	p.pos++
	mark := len(p.items)
	defer func() {
		v.Items = slices.Clone(p.items[mark:])
		p.items = p.items[:mark]
	}()
	for {
		p.space()
		if p.pos >= len(p.src) {
			v.End = p.pos
			return v
		}
		switch p.src[p.pos] {
		case ']':
			p.pos++
			v.End, v.Closed = p.pos, true
			return v
		case '}':
			v.End = p.pos
			return v
		case ',', ':':
			p.pos++
			continue
		}
		if it := p.value(depth + 1); it != nil {
			p.items = append(p.items, it)
		}
	}
}

// skipNested passes over a container nested too deep to read, counting
// brackets outside strings, and stands in for it with a null.
func (p *looseParser) skipNested() *Loose {
	start, depth := p.pos, 0
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case '"':
			p.skipString()
			continue
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		}
		p.pos++
		if depth == 0 {
			break
		}
	}
	return &Loose{Kind: Null, Start: start, End: p.pos}
}

// Get returns the value of the first member called name, or nil.
func (v *Loose) Get(name string) *Loose {
	if v == nil || v.Kind != Object {
		return nil
	}
	for _, m := range v.Members {
		if m.Name.Str == name {
			return m.Value
		}
	}
	return nil
}

// Text returns v's text if v is a string, else "".
func (v *Loose) Text() string {
	if v == nil || v.Kind != String {
		return ""
	}
	return v.Str
}
