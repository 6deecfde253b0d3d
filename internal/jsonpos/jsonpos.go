// Package jsonpos parses JSON strictly (RFC 8259, UTF-8 without BOM, no
// duplicate member names, bounded nesting) and keeps the byte offset of every
// value, so that a JSON pointer can be mapped back to a line and column.
//
// It wraps encoding/json's tokenizer rather than writing a new one: the
// decoder does the grammar, this package adds what the decoder silently
// forgives (duplicate keys, invalid UTF-8, lone surrogates) and the offsets.
package jsonpos

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxDepth is the deepest nesting of arrays and objects Parse accepts. Real
// manifests nest fewer than 20 levels; the cap keeps a hostile 10^6-deep
// document from costing more than a clear error.
const MaxDepth = 256

// Kind is the JSON type of a Value.
type Kind int

// The JSON types.
const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

// Value is one parsed JSON value with its byte range in the source.
type Value struct {
	Kind    Kind
	Bool    bool
	Str     string   // String: the decoded text
	Num     string   // Number: the literal as written, e.g. "1.50"
	Items   []*Value // Array
	Members []Member // Object, in source order
	Start   int      // offset of the first byte of the value
	End     int      // offset just past the last byte
}

// Member is one name/value pair of an object.
type Member struct {
	Name   string
	NameAt int // offset of the opening quote of the name
	Value  *Value
}

// Get returns the value of the first member called name, or nil.
func (v *Value) Get(name string) *Value {
	if v == nil || v.Kind != Object {
		return nil
	}
	for _, m := range v.Members {
		if m.Name == name {
			return m.Value
		}
	}
	return nil
}

// String returns v's text if v is a JSON string, else "".
func (v *Value) String() string {
	if v == nil || v.Kind != String {
		return ""
	}
	return v.Str
}

// ErrorKind classifies a parse error so callers can map it to a lint rule.
type ErrorKind int

// Parse error kinds.
const (
	ErrSyntax   ErrorKind = iota // not JSON
	ErrEncoding                  // BOM, invalid UTF-8, NUL, lone surrogate escape
	ErrDepth                     // nesting deeper than MaxDepth
	ErrNumber                    // not representable: integer beyond 2^53-1 (only with Options.SafeIntegers)
)

// Error is a parse failure at a byte offset.
type Error struct {
	Kind   ErrorKind
	Offset int
	Msg    string
}

func (e *Error) Error() string { return fmt.Sprintf("offset %d: %s", e.Offset, e.Msg) }

// Duplicate records a member name that occurs twice in one object. Parse keeps
// the first occurrence in the tree, which is what installers verify.
type Duplicate struct {
	Pointer string // pointer to the object holding the name twice
	Name    string
	At      int // offset of the second occurrence's name
}

// Doc is a parsed document.
type Doc struct {
	Src        []byte
	Root       *Value
	Duplicates []Duplicate
	// lines gives the offsets at which each line starts, found on first
	// use: most documents lint clean and are never asked for a position.
	lines func() []int
}

// Options tunes Parse for callers with stricter needs than lint.
type Options struct {
	// SafeIntegers refuses integers outside ±(2^53-1), which JavaScript
	// cannot represent: the canonical form of such a number would differ
	// from the source.
	SafeIntegers bool
}

// Parse parses src with the default options.
func Parse(src []byte) (*Doc, error) { return ParseWith(src, Options{}) }

// ParseWith parses src strictly. Duplicate member names do not fail the parse:
// they are listed in Doc.Duplicates for the caller to report.
func ParseWith(src []byte, opt Options) (*Doc, error) {
	if err := CheckEncoding(src); err != nil {
		return nil, err
	}
	if root, ok := scan(src, opt); ok {
		return &Doc{Src: src, Root: root, lines: linesOf(src)}, nil
	}
	return parseTokens(src, opt)
}

// parseTokens is ParseWith by encoding/json's tokenizer: the reference
// parser, which reports every error and duplicate.
func parseTokens(src []byte, opt Options) (*Doc, error) {
	p := &parser{src: src, dec: json.NewDecoder(bytes.NewReader(src)), opt: opt}
	p.dec.UseNumber()
	root, err := p.value("", 0)
	if err != nil {
		return nil, err
	}
	end := p.skipSpace(int(p.dec.InputOffset()))
	if _, err := p.dec.Token(); err != io.EOF {
		return nil, &Error{Kind: ErrSyntax, Offset: end, Msg: "unexpected data after the top-level value"}
	}
	return &Doc{Src: src, Root: root, Duplicates: p.dups, lines: linesOf(src)}, nil
}

// CheckEncoding reports a BOM, a NUL byte or invalid UTF-8 in any text file
// as an *Error of kind ErrEncoding.
func CheckEncoding(src []byte) error {
	if bytes.HasPrefix(src, []byte("\xef\xbb\xbf")) {
		return &Error{Kind: ErrEncoding, Offset: 0, Msg: "file starts with a UTF-8 byte order mark; save it without BOM"}
	}
	if i := bytes.IndexByte(src, 0); i >= 0 {
		return &Error{Kind: ErrEncoding, Offset: i, Msg: "NUL byte in a text file"}
	}
	if !utf8.Valid(src) {
		return &Error{Kind: ErrEncoding, Offset: firstInvalidUTF8(src), Msg: "invalid UTF-8; save the file as UTF-8"}
	}
	return nil
}

func firstInvalidUTF8(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return len(b)
}

type parser struct {
	src  []byte
	dec  *json.Decoder
	opt  Options
	dups []Duplicate
}

// skipSpace returns the offset of the first byte at or after off that is not
// JSON whitespace or a separator the decoder consumes silently.
func (p *parser) skipSpace(off int) int {
	for off < len(p.src) {
		switch p.src[off] {
		case ' ', '\t', '\n', '\r', ',', ':':
			off++
		default:
			return off
		}
	}
	return off
}

func (p *parser) token() (json.Token, int, error) {
	start := p.skipSpace(int(p.dec.InputOffset()))
	tok, err := p.dec.Token()
	if err != nil {
		return nil, start, p.syntaxError(err, start)
	}
	return tok, start, nil
}

func (p *parser) syntaxError(err error, start int) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return &Error{Kind: ErrSyntax, Offset: len(p.src), Msg: "unexpected end of file: the JSON is truncated"}
	}
	// The tokenizer's offsets are not reliable in token mode; a whole-document
	// Unmarshal reports the byte just past the offending one.
	var se *json.SyntaxError
	if errors.As(json.Unmarshal(p.src, new(any)), &se) {
		if int(se.Offset) >= len(p.src) && strings.Contains(se.Error(), "end of JSON input") {
			return &Error{Kind: ErrSyntax, Offset: len(p.src), Msg: "unexpected end of file: the JSON is truncated"}
		}
		off := max(int(se.Offset)-1, 0)
		if at, msg, ok := explainSyntax(p.src, off, se.Error()); ok {
			return &Error{Kind: ErrSyntax, Offset: at, Msg: msg}
		}
		return &Error{Kind: ErrSyntax, Offset: off, Msg: strings.TrimPrefix(se.Error(), "json: ")}
	}
	return &Error{Kind: ErrSyntax, Offset: start, Msg: err.Error()}
}

// explainSyntax says in a user's words what encoding/json's syntax error
// (goMsg, at the byte off) is, where it knows the mistake: a trailing,
// doubled, leading or missing comma. at is where the mistake is.
func explainSyntax(src []byte, off int, goMsg string) (at int, msg string, ok bool) {
	if comma, ok := trailingComma(src, off); ok {
		return comma, fmt.Sprintf("trailing comma before the closing %q; delete the comma", src[off]), true
	}
	if msg, ok := strayComma(src, off, goMsg); ok {
		return off, msg, true
	}
	if at, msg, ok := missingComma(src, off, goMsg); ok {
		return at, msg, true
	}
	return unexpectedAfter(src, off, goMsg)
}

// unexpectedAfter says what belongs where encoding/json found a character
// that cannot stand there ("invalid character 'x' after array element",
// "... looking for beginning of value"): the byte at off, named as it is,
// and what would be right there.
func unexpectedAfter(src []byte, off int, goMsg string) (int, string, bool) {
	if off < 0 || off >= len(src) {
		return 0, "", false
	}
	var want string
	switch {
	case strings.HasSuffix(goMsg, "after array element"):
		want = `"," before the next item or "]" to close the array`
	case strings.HasSuffix(goMsg, "after object key:value pair"):
		want = `"," before the next member or "}" to close the object`
	case strings.HasSuffix(goMsg, "after object key"):
		want = `":" between the member's name and its value`
	case strings.HasSuffix(goMsg, "looking for beginning of object key string"):
		want = "a member's name (a string in double quotes)"
	case strings.HasSuffix(goMsg, "looking for beginning of value"):
		want = "a value"
	default:
		return 0, "", false
	}
	msg := fmt.Sprintf("%s where %s belongs", describeByte(src[off]), want)
	if c := src[off] | 0x20; want == "a value" && c >= 'a' && c <= 'z' {
		msg += "; a string needs double quotes" // true, false and null are lower-case words encoding/json accepts
	}
	return off, msg, true
}

// describeByte names an unexpected byte for a message: printable ASCII
// quoted as it is, anything else by its code.
func describeByte(b byte) string {
	if b > ' ' && b < 0x7f {
		return fmt.Sprintf("unexpected %q", rune(b))
	}
	return fmt.Sprintf("unexpected byte 0x%02x", b)
}

// trailingComma finds the comma a closing bracket at off follows (only
// whitespace between): the mistake is the comma, so that is where it is
// reported, not at the bracket on the next line.
func trailingComma(src []byte, off int) (int, bool) {
	if off < 0 || off >= len(src) || src[off] != '}' && src[off] != ']' {
		return 0, false
	}
	for i := off - 1; i >= 0; i-- {
		switch src[i] {
		case ' ', '\t', '\n', '\r':
			continue
		case ',':
			return i, true
		}
		return 0, false
	}
	return 0, false
}

// strayComma explains a comma at off that follows another comma or an
// opening bracket (only whitespace between): ",," or "[," where a member
// or a value belongs (goMsg, encoding/json's, says which).
func strayComma(src []byte, off int, goMsg string) (string, bool) {
	if off <= 0 || off >= len(src) || src[off] != ',' {
		return "", false
	}
	i := off - 1
	for i > 0 && strings.IndexByte(" \t\n\r", src[i]) >= 0 {
		i--
	}
	next := off + 1
	for next < len(src) && strings.IndexByte(" \t\n\r", src[next]) >= 0 {
		next++
	}
	closing := next < len(src) && (src[next] == '}' || src[next] == ']')
	switch {
	case src[i] == ',' && closing:
		return fmt.Sprintf("two commas before the closing %q, where no value follows; delete both", src[next]), true
	case src[i] == ',':
		what := "a value"
		if strings.HasSuffix(goMsg, "looking for beginning of object key string") {
			what = "a member"
		}
		return "a second comma where " + what + " belongs; delete one of the two", true
	case src[i] == '{' || src[i] == '[':
		return fmt.Sprintf("a comma right after the opening %q, before any value; delete it", src[i]), true
	}
	return "", false
}

// missingComma recognizes encoding/json's "invalid character ... after
// object key:value pair" (or "after array element") where the byte at off
// starts what could be the next member or item: the comma between them is
// missing. It is reported where the comma belongs, just after the previous
// value (often on the line before the one encoding/json names).
func missingComma(src []byte, off int, goMsg string) (int, string, bool) {
	if off < 0 || off >= len(src) {
		return 0, "", false
	}
	next := "member"
	switch {
	case strings.HasSuffix(goMsg, "after object key:value pair"):
		if src[off] != '"' {
			return 0, "", false
		}
	case strings.HasSuffix(goMsg, "after array element"):
		if !strings.ContainsRune(`"{[-0123456789tfn`, rune(src[off])) {
			return 0, "", false
		}
		next = "item"
	default:
		return 0, "", false
	}
	end := off
	for end > 0 && strings.IndexByte(" \t\n\r", src[end-1]) >= 0 {
		end--
	}
	return end, fmt.Sprintf("missing \",\" after this value, before the next %s; add the comma", next), true
}

func (p *parser) value(ptr string, depth int) (*Value, error) {
	tok, start, err := p.token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		if depth >= MaxDepth {
			return nil, &Error{Kind: ErrDepth, Offset: start, Msg: fmt.Sprintf("nesting deeper than %d levels", MaxDepth)}
		}
		if t == '[' {
			return p.array(ptr, start, depth)
		}
		if t == '{' {
			return p.object(ptr, start, depth)
		}
		return nil, &Error{Kind: ErrSyntax, Offset: start, Msg: fmt.Sprintf("unexpected %q", rune(t))}
	case string:
		if err := p.checkSurrogates(start); err != nil {
			return nil, err
		}
		return &Value{Kind: String, Str: t, Start: start, End: int(p.dec.InputOffset())}, nil
	case json.Number:
		if err := p.checkNumber(t, start); err != nil {
			return nil, err
		}
		return &Value{Kind: Number, Num: string(t), Start: start, End: int(p.dec.InputOffset())}, nil
	case bool:
		return &Value{Kind: Bool, Bool: t, Start: start, End: int(p.dec.InputOffset())}, nil
	case nil:
		return &Value{Kind: Null, Start: start, End: int(p.dec.InputOffset())}, nil
	}
	return nil, &Error{Kind: ErrSyntax, Offset: start, Msg: "unexpected token"}
}

func (p *parser) array(ptr string, start, depth int) (*Value, error) {
	v := &Value{Kind: Array, Start: start}
	for p.dec.More() {
		item, err := p.value(ptr+"/"+strconv.Itoa(len(v.Items)), depth+1)
		if err != nil {
			return nil, err
		}
		v.Items = append(v.Items, item)
	}
	if _, _, err := p.token(); err != nil { // ']'
		return nil, err
	}
	v.End = int(p.dec.InputOffset())
	return v, nil
}

func (p *parser) object(ptr string, start, depth int) (*Value, error) {
	v := &Value{Kind: Object, Start: start}
	seen := map[string]bool{}
	for p.dec.More() {
		tok, at, err := p.token()
		if err != nil {
			return nil, err
		}
		name, _ := tok.(string)
		if err := p.checkSurrogates(at); err != nil {
			return nil, err
		}
		val, err := p.value(ptr+"/"+EscapeToken(name), depth+1)
		if err != nil {
			return nil, err
		}
		if seen[name] {
			p.dups = append(p.dups, Duplicate{Pointer: ptr, Name: name, At: at})
			continue
		}
		seen[name] = true
		v.Members = append(v.Members, Member{Name: name, NameAt: at, Value: val})
	}
	if _, _, err := p.token(); err != nil { // '}'
		return nil, err
	}
	v.End = int(p.dec.InputOffset())
	return v, nil
}

// checkSurrogates refuses a string literal starting at start that escapes a
// lone UTF-16 surrogate: the decoder turns it into U+FFFD, so the parsed text
// would no longer be what was written (and signed).
func (p *parser) checkSurrogates(start int) error {
	raw := p.src[start:int(p.dec.InputOffset())]
	if !bytes.Contains(raw, []byte(`\u`)) {
		return nil
	}
	for i := 0; i+6 <= len(raw); i++ {
		if raw[i] != '\\' {
			continue
		}
		if raw[i+1] != 'u' {
			i++ // skip the escaped character, e.g. the second \ of \\
			continue
		}
		hi, _ := strconv.ParseUint(string(raw[i+2:i+6]), 16, 16)
		switch {
		case hi >= 0xD800 && hi < 0xDC00:
			if i+12 <= len(raw) && raw[i+6] == '\\' && raw[i+7] == 'u' {
				lo, _ := strconv.ParseUint(string(raw[i+8:i+12]), 16, 16)
				if lo >= 0xDC00 && lo < 0xE000 {
					i += 11
					continue
				}
			}
			return &Error{Kind: ErrEncoding, Offset: start + i, Msg: "lone UTF-16 surrogate escape " + string(raw[i:i+6])}
		case hi >= 0xDC00 && hi < 0xE000:
			return &Error{Kind: ErrEncoding, Offset: start + i, Msg: "lone UTF-16 surrogate escape " + string(raw[i:i+6])}
		}
		i += 5
	}
	return nil
}

const maxSafeInteger = 1<<53 - 1

func (p *parser) checkNumber(n json.Number, start int) error {
	if !p.opt.SafeIntegers {
		return nil
	}
	return numberError(string(n), start)
}

// numberError refuses an integer literal n (at start) that JavaScript
// cannot represent exactly.
func numberError(n string, start int) error {
	safe := true
	if !strings.ContainsAny(n, ".eE") {
		i, err := strconv.ParseInt(n, 10, 64)
		safe = err == nil && i <= maxSafeInteger && i >= -maxSafeInteger
	} else if f, err := strconv.ParseFloat(n, 64); err == nil && math.Abs(f) > maxSafeInteger && math.Abs(f) < 1e21 {
		// 1e18 or 1.5e20 are integers too: JSON.stringify writes them as
		// plain digits, which would then be refused above. From 1e21 on it
		// writes exponent notation.
		safe = false
	}
	if safe {
		return nil
	}
	return &Error{Kind: ErrNumber, Offset: start, Msg: fmt.Sprintf("number %s is an integer beyond ±(2^53-1), which JavaScript cannot represent exactly", NumberForMessage(n))}
}

// NumberForMessage shortens a number literal for an error message: a
// hostile document's 500,000-digit number must not become a 500 KB line.
func NumberForMessage(lit string) string {
	const keep = 24
	if len(lit) <= keep+8 { // number literals are ASCII
		return lit
	}
	return fmt.Sprintf("%s... (%d characters)", lit[:keep], len(lit))
}

// EscapeToken escapes a member name for use in a JSON pointer (RFC 6901).
func EscapeToken(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// Interface converts v to the plain Go shape encoding/json produces with
// UseNumber: map[string]any, []any, string, json.Number, bool, nil.
func (v *Value) Interface() any {
	switch v.Kind {
	case Bool:
		return v.Bool
	case Number:
		return json.Number(v.Num)
	case String:
		return v.Str
	case Array:
		out := make([]any, len(v.Items))
		for i, it := range v.Items {
			out[i] = it.Interface()
		}
		return out
	case Object:
		out := make(map[string]any, len(v.Members))
		for _, m := range v.Members {
			out[m.Name] = m.Value.Interface()
		}
		return out
	}
	return nil
}

// Set replaces the value of member name, or appends the member when v has
// none. v must be an object.
func (v *Value) Set(name string, val *Value) {
	for i := range v.Members {
		if v.Members[i].Name == name {
			v.Members[i].Value = val
			return
		}
	}
	v.Members = append(v.Members, Member{Name: name, Value: val})
}

// Delete removes member name from object v, if present.
func (v *Value) Delete(name string) {
	v.Members = slices.DeleteFunc(v.Members, func(m Member) bool { return m.Name == name })
}

// StringObject builds an object of string members, in the given order:
// StringObject("a", "1", "b", "2") is {"a":"1","b":"2"}.
func StringObject(pairs ...string) *Value {
	obj := &Value{Kind: Object}
	for i := 0; i+1 < len(pairs); i += 2 {
		obj.Members = append(obj.Members, Member{Name: pairs[i], Value: &Value{Kind: String, Str: pairs[i+1]}})
	}
	return obj
}
