package jsonpos

import (
	"slices"
	"unicode/utf16"
	"unicode/utf8"
)

// scanner is a direct, single-pass reader for the documents lint meets
// nearly always: well-formed JSON without duplicate names or deep nesting.
// encoding/json's token API costs several allocations per token (and
// formats an error message to find where each value ends), which made
// parsing a quarter of a cold lint. The scanner gives up (ok false) on
// anything else, and ParseWith then runs the token parser, which writes every
// error and records duplicates; so the scanner never decides what is an
// error. FuzzScanMatchesParser holds its trees equal to the token parser's.
type scanner struct {
	src  []byte
	pos  int
	opt  Options
	slab []Value // Values are carved from here: one allocation per 64

	// The members and items of the objects and arrays being read are
	// gathered here and copied out at the closing bracket: one allocation
	// of the right size per container instead of append's regrowth.
	members []Member
	items   []*Value
}

// scan parses src (already checked by CheckEncoding) and reports whether it
// could; when it could, the tree is the one the token parser builds.
func scan(src []byte, opt Options) (root *Value, ok bool) {
	s := &scanner{src: src, opt: opt}
	root, ok = s.value(0)
	if !ok {
		return nil, false
	}
	s.space()
	return root, s.pos == len(src)
}

func (s *scanner) newValue() *Value {
	if len(s.slab) == 0 {
		s.slab = make([]Value, 64)
	}
	v := &s.slab[0]
	s.slab = s.slab[1:]
	return v
}

// space skips JSON whitespace.
func (s *scanner) space() {
	for s.pos < len(s.src) {
		switch s.src[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

func (s *scanner) value(depth int) (*Value, bool) {
	s.space()
	if s.pos >= len(s.src) {
		return nil, false
	}
	start := s.pos
	switch c := s.src[s.pos]; {
	case c == '{':
		if depth >= MaxDepth {
			return nil, false
		}
		return s.object(depth)
	case c == '[':
		if depth >= MaxDepth {
			return nil, false
		}
		return s.array(depth)
	case c == '"':
		str, ok := s.string()
		if !ok {
			return nil, false
		}
		v := s.newValue()
		*v = Value{Kind: String, Str: str, Start: start, End: s.pos}
		return v, true
	case c == '-' || c >= '0' && c <= '9':
		if !s.number() {
			return nil, false
		}
		lit := string(s.src[start:s.pos])
		if s.opt.SafeIntegers && numberError(lit, start) != nil {
			return nil, false
		}
		v := s.newValue()
		*v = Value{Kind: Number, Num: lit, Start: start, End: s.pos}
		return v, true
	}
	for _, lit := range [...]struct {
		text string
		v    Value
	}{{"true", Value{Kind: Bool, Bool: true}}, {"false", Value{Kind: Bool}}, {"null", Value{Kind: Null}}} {
		if len(s.src)-s.pos >= len(lit.text) && string(s.src[s.pos:s.pos+len(lit.text)]) == lit.text {
			s.pos += len(lit.text)
			v := s.newValue()
			*v = lit.v
			v.Start, v.End = start, s.pos
			return v, true
		}
	}
	return nil, false
}

func (s *scanner) array(depth int) (*Value, bool) {
	v := s.newValue()
	*v = Value{Kind: Array, Start: s.pos}
	s.pos++ // [
	s.space()
	if s.pos < len(s.src) && s.src[s.pos] == ']' {
		s.pos++
		v.End = s.pos
		return v, true
	}
	mark := len(s.items)
	for {
		item, ok := s.value(depth + 1)
		if !ok {
			return nil, false
		}
		s.items = append(s.items, item)
		s.space()
		if s.pos >= len(s.src) {
			return nil, false
		}
		switch s.src[s.pos] {
		case ',':
			s.pos++
		case ']':
			s.pos++
			v.End = s.pos
			v.Items = slices.Clone(s.items[mark:])
			s.items = s.items[:mark]
			return v, true
		default:
			return nil, false
		}
	}
}

func (s *scanner) object(depth int) (*Value, bool) {
	var seen names
	v := s.newValue()
	*v = Value{Kind: Object, Start: s.pos}
	s.pos++ // {
	s.space()
	if s.pos < len(s.src) && s.src[s.pos] == '}' {
		s.pos++
		v.End = s.pos
		return v, true
	}
	mark := len(s.members)
	for {
		s.space()
		if s.pos >= len(s.src) || s.src[s.pos] != '"' {
			return nil, false
		}
		at := s.pos
		name, ok := s.string()
		if !ok || seen.has(s.members[mark:], name) { // a duplicate: the token parser records it
			return nil, false
		}
		s.space()
		if s.pos >= len(s.src) || s.src[s.pos] != ':' {
			return nil, false
		}
		s.pos++
		val, ok := s.value(depth + 1)
		if !ok {
			return nil, false
		}
		s.members = append(s.members, Member{Name: name, NameAt: at, Value: val})
		s.space()
		if s.pos >= len(s.src) {
			return nil, false
		}
		switch s.src[s.pos] {
		case ',':
			s.pos++
		case '}':
			s.pos++
			v.End = s.pos
			v.Members = slices.Clone(s.members[mark:])
			s.members = s.members[:mark]
			return v, true
		default:
			return nil, false
		}
	}
}

// string reads a string literal at s.pos (its opening quote) and returns its
// text. It gives up on anything JSON forbids in a string, and on an escaped
// lone surrogate (which the token parser refuses).
func (s *scanner) string() (string, bool) {
	s.pos++ // opening quote
	start := s.pos
	for i := start; i < len(s.src); i++ {
		switch c := s.src[i]; {
		case c == '"':
			s.pos = i + 1
			return string(s.src[start:i]), true
		case c == '\\':
			return s.escaped(start)
		case c < 0x20:
			return "", false
		}
	}
	return "", false
}

// escaped reads the rest of a string literal that holds escapes, from start
// (just past its opening quote).
func (s *scanner) escaped(start int) (string, bool) {
	buf := make([]byte, 0, 64)
	for i := start; i < len(s.src); i++ {
		c := s.src[i]
		switch {
		case c == '"':
			s.pos = i + 1
			return string(buf), true
		case c < 0x20:
			return "", false
		case c != '\\':
			buf = append(buf, c)
			continue
		}
		i++
		if i >= len(s.src) {
			return "", false
		}
		switch s.src[i] {
		case '"', '\\', '/':
			buf = append(buf, s.src[i])
		case 'b':
			buf = append(buf, '\b')
		case 'f':
			buf = append(buf, '\f')
		case 'n':
			buf = append(buf, '\n')
		case 'r':
			buf = append(buf, '\r')
		case 't':
			buf = append(buf, '\t')
		case 'u':
			r, next, ok := s.unicodeEscape(i + 1)
			if !ok {
				return "", false
			}
			buf = utf8.AppendRune(buf, r)
			i = next - 1
		default:
			return "", false
		}
	}
	return "", false
}

// unicodeEscape decodes the four hex digits at i (just past a \u), and the
// low half that must follow a high surrogate; it returns the rune and the
// offset past what it read. It gives up on a lone or reversed surrogate.
func (s *scanner) unicodeEscape(i int) (r rune, next int, ok bool) {
	r, ok = hex4(s.src, i)
	switch {
	case !ok:
		return 0, 0, false
	case !utf16.IsSurrogate(r):
		return r, i + 4, true
	case r >= 0xDC00 || i+10 > len(s.src) || s.src[i+4] != '\\' || s.src[i+5] != 'u':
		return 0, 0, false
	}
	lo, ok := hex4(s.src, i+6)
	if !ok || lo < 0xDC00 || lo >= 0xE000 {
		return 0, 0, false
	}
	return utf16.DecodeRune(r, lo), i + 10, true
}

// hex4 reads four hex digits at src[i:].
func hex4(src []byte, i int) (rune, bool) {
	if i+4 > len(src) {
		return 0, false
	}
	var r rune
	for _, c := range src[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// number reads a number literal (RFC 8259 grammar) at s.pos.
func (s *scanner) number() bool {
	if s.peek() == '-' {
		s.pos++
	}
	switch c := s.peek(); {
	case c == '0':
		s.pos++
	case c >= '1' && c <= '9':
		s.digits()
	default:
		return false
	}
	if s.peek() == '.' {
		s.pos++
		if !s.digits() {
			return false
		}
	}
	if c := s.peek(); c == 'e' || c == 'E' {
		s.pos++
		if c := s.peek(); c == '+' || c == '-' {
			s.pos++
		}
		if !s.digits() {
			return false
		}
	}
	// A number must end at a delimiter; "1x" or "01" is the parser's to refuse.
	switch s.peek() {
	case 0, ',', ']', '}', ' ', '\t', '\n', '\r':
		return true
	}
	return false
}

// digits skips one or more decimal digits, reporting whether there was one.
func (s *scanner) digits() bool {
	from := s.pos
	for s.pos < len(s.src) && s.src[s.pos] >= '0' && s.src[s.pos] <= '9' {
		s.pos++
	}
	return s.pos > from
}

func (s *scanner) peek() byte {
	if s.pos < len(s.src) {
		return s.src[s.pos]
	}
	return 0
}

// names finds a repeated member name: by a scan of the members while an
// object is small, by a set once it is not (a hostile object of 10^5
// members must not cost 10^10 comparisons).
type names map[string]bool

// has reports whether name is already among members (the object's so
// far), and records it.
func (n *names) has(members []Member, name string) bool {
	const small = 16
	if *n == nil {
		if len(members) < small {
			for _, m := range members {
				if m.Name == name {
					return true
				}
			}
			return false
		}
		*n = make(names, 2*small)
		for _, m := range members {
			(*n)[m.Name] = true
		}
	}
	if (*n)[name] {
		return true
	}
	(*n)[name] = true
	return false
}
