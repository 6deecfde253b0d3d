// Package jsonedit edits JSON text at JSON pointers (RFC 6901) while keeping
// everything it was not asked to change byte for byte: member order,
// indentation, number spelling and escapes. It is the one JSON editor behind
// `wop pack bump`, `wop pack lint --fix`, `wop pack migrate` and staging.
//
// Each operation parses the text, changes one span (SetAll several, from
// one parse) and returns new text; new values are laid out in the
// indentation the document already uses.
package jsonedit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/wop-cli/wop/internal/jsonpos"
)

// ErrNotFound means a pointer names nothing in the document.
var ErrNotFound = errors.New("no such value")

// Set replaces the value at ptr with value, encoded with encoding/json (pass
// a json.RawMessage to keep a given member order). When ptr names a missing
// member of an existing object the member is added at the end; "-" as the
// last token of an array pointer appends.
func Set(src []byte, ptr string, value any) ([]byte, error) {
	d, parent, last, err := parseAt(src, ptr)
	if err != nil {
		return nil, err
	}
	if parent == nil { // the root
		enc, err := d.encode(value, d.Root.Start)
		if err != nil {
			return nil, err
		}
		return splice(src, d.Root.Start, d.Root.End, enc), nil
	}
	if child := d.child(parent, last); child != nil {
		enc, err := d.encode(value, child.Start)
		if err != nil {
			return nil, err
		}
		return splice(src, child.Start, child.End, enc), nil
	}
	return d.insert(parent, last, value, ptr)
}

// SetAll is Set for many pointers at once, parsing src once: Set in a
// loop parses the document again for every edit, which made migrating a
// chain of thousands of nodes take minutes. Each pointer names an existing
// value or a missing member of an existing object (added at its end, as
// Set does); two pointers may not add to the same object, nor one name a
// value inside another's.
func SetAll(src []byte, values map[string]any) ([]byte, error) {
	if len(values) == 0 {
		return src, nil
	}
	d, err := parse(src)
	if err != nil {
		return nil, err
	}
	edits := make([]edit, 0, len(values))
	adding := map[*jsonpos.Value]bool{}
	for ptr, value := range values {
		e, err := d.setEdit(ptr, value, adding)
		if err != nil {
			return nil, err
		}
		edits = append(edits, e)
	}
	slices.SortFunc(edits, func(a, b edit) int { return a.start - b.start })
	var out bytes.Buffer
	out.Grow(len(src))
	at := 0
	for _, e := range edits {
		if e.start < at {
			return nil, errors.New("two edits overlap: one pointer names a value inside another's")
		}
		out.Write(src[at:e.start])
		out.Write(e.with)
		at = e.end
	}
	out.Write(src[at:])
	return out.Bytes(), nil
}

// setEdit is the edit Set makes for ptr; adding records the objects a
// member is added to, which may take one new member per batch.
func (d *doc) setEdit(ptr string, value any, adding map[*jsonpos.Value]bool) (edit, error) {
	parent, last, err := d.resolveParent(ptr)
	if err != nil {
		return edit{}, err
	}
	v := d.Root
	if parent != nil {
		v = d.child(parent, last)
	}
	if v != nil {
		enc, err := d.encode(value, v.Start)
		return edit{v.Start, v.End, enc}, err
	}
	if parent.Kind != jsonpos.Object || adding[parent] {
		return edit{}, fmt.Errorf("%s: SetAll adds only one member to an object: %w", ptr, ErrNotFound)
	}
	adding[parent] = true
	return d.insertEdit(parent, last, value, ptr)
}

// Insert adds value at ptr: a new member at the end of an object (an error
// if it exists), or an array element before index n ("-" or len appends).
func Insert(src []byte, ptr string, value any) ([]byte, error) {
	d, parent, last, err := parseAt(src, ptr)
	if err != nil {
		return nil, err
	}
	if parent == nil {
		return nil, fmt.Errorf("insert at %q: the root cannot be inserted", ptr)
	}
	if parent.Kind == jsonpos.Object && d.child(parent, last) != nil {
		return nil, fmt.Errorf("insert at %q: member exists; use Set to replace it", ptr)
	}
	return d.insert(parent, last, value, ptr)
}

// Rename changes the name of the member at ptr to name, keeping its place
// and value. Renaming onto an existing sibling is an error.
func Rename(src []byte, ptr, name string) ([]byte, error) {
	_, parent, last, err := parseAt(src, ptr)
	if err != nil {
		return nil, err
	}
	if parent == nil || parent.Kind != jsonpos.Object {
		return nil, fmt.Errorf("rename %q: not an object member", ptr)
	}
	i := memberIndex(parent, last)
	if i < 0 {
		return nil, fmt.Errorf("rename %q: %w", ptr, ErrNotFound)
	}
	if name != last && memberIndex(parent, name) >= 0 {
		return nil, fmt.Errorf("rename %q to %q: a member of that name exists", ptr, name)
	}
	enc, err := encodeName(name)
	if err != nil {
		return nil, err
	}
	m := parent.Members[i]
	return splice(src, m.NameAt, nameEnd(src, m), enc), nil
}

// Delete removes the member or array element at ptr together with its
// separating comma, leaving the neighbours' layout as it was.
func Delete(src []byte, ptr string) ([]byte, error) {
	_, parent, last, err := parseAt(src, ptr)
	if err != nil {
		return nil, err
	}
	if parent == nil {
		return nil, fmt.Errorf("delete %q: the root cannot be deleted", ptr)
	}
	starts, ends, i := spans(src, parent, last)
	if i < 0 {
		return nil, fmt.Errorf("delete %q: %w", ptr, ErrNotFound)
	}
	switch {
	case len(starts) == 1: // the only one: leave an empty container
		return splice(src, parent.Start+1, parent.End-1, nil), nil
	case i+1 < len(starts): // up to the next one, whose leading space takes this one's place
		return splice(src, starts[i], starts[i+1], nil), nil
	default: // the last: from the previous one's end, dropping the comma
		return splice(src, ends[i-1], ends[i], nil), nil
	}
}

// doc is a parsed document with its layout conventions.
type doc struct {
	src  []byte
	Root *jsonpos.Value
	unit string // one level of indentation; "" for a single-line document
}

func parse(src []byte) (*doc, error) {
	d, err := jsonpos.Parse(src)
	if err != nil {
		return nil, err
	}
	if len(d.Duplicates) > 0 {
		dup := d.Duplicates[0]
		return nil, fmt.Errorf("member %q appears twice in %q: remove one before editing", dup.Name, dup.Pointer)
	}
	return &doc{src: src, Root: d.Root, unit: indentUnit(src)}, nil
}

// indentUnit is the indentation of the first indented line: the step the
// document's writer used ("  ", "    ", "\t"). A document on one line gets
// "" and new values are written compactly.
func indentUnit(src []byte) string {
	for line := range bytes.SplitSeq(src, []byte("\n")) {
		ws := len(line) - len(bytes.TrimLeft(line, " \t"))
		if ws > 0 && ws < len(line) {
			return string(line[:ws])
		}
	}
	if bytes.Contains(src, []byte("\n")) {
		return "  "
	}
	return ""
}

// lineIndent is the whitespace that starts the line holding offset off.
func (d *doc) lineIndent(off int) string {
	start := bytes.LastIndexByte(d.src[:off], '\n') + 1
	line := d.src[start:off]
	return string(line[:len(line)-len(bytes.TrimLeft(line, " \t"))])
}

// encode writes value as it would sit at offset off.
func (d *doc) encode(value any, off int) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if d.unit != "" {
		enc.SetIndent(d.lineIndent(off), d.unit)
	}
	if err := enc.Encode(value); err != nil {
		return nil, fmt.Errorf("encode value: %w", err)
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// encodeName encodes a member name, refusing text encoding/json would
// silently change (invalid UTF-8 becomes U+FFFD).
func encodeName(s string) ([]byte, error) {
	if !utf8.ValidString(s) {
		return nil, fmt.Errorf("member name %q is not valid UTF-8", s)
	}
	return encodeString(s), nil
}

func encodeString(s string) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return bytes.TrimRight(buf.Bytes(), "\n")
}

// parseAt parses src and walks to the container holding ptr's last token
// (nil for the root pointer ""): where every edit starts.
func parseAt(src []byte, ptr string) (d *doc, parent *jsonpos.Value, last string, err error) {
	if d, err = parse(src); err != nil {
		return nil, nil, "", err
	}
	parent, last, err = d.resolveParent(ptr)
	return d, parent, last, err
}

func splice(src []byte, start, end int, with []byte) []byte {
	out := make([]byte, 0, len(src)-(end-start)+len(with))
	out = append(out, src[:start]...)
	out = append(out, with...)
	return append(out, src[end:]...)
}

// resolveParent walks to the container holding ptr's last token. It returns
// a nil parent for the root pointer "".
func (d *doc) resolveParent(ptr string) (*jsonpos.Value, string, error) {
	toks, err := Tokens(ptr)
	if err != nil {
		return nil, "", err
	}
	if len(toks) == 0 {
		return nil, "", nil
	}
	v := d.Root
	for i, t := range toks[:len(toks)-1] {
		if v = d.child(v, t); v == nil {
			return nil, "", fmt.Errorf("%s: %w", Pointer(toks[:i+1]...), ErrNotFound)
		}
	}
	if v.Kind != jsonpos.Object && v.Kind != jsonpos.Array {
		return nil, "", fmt.Errorf("%s: %w (its parent is not an object or array)", ptr, ErrNotFound)
	}
	return v, toks[len(toks)-1], nil
}

// child is the member or element tok names in v, or nil.
func (d *doc) child(v *jsonpos.Value, tok string) *jsonpos.Value {
	switch v.Kind {
	case jsonpos.Object:
		if i := memberIndex(v, tok); i >= 0 {
			return v.Members[i].Value
		}
	case jsonpos.Array:
		if i, ok := arrayIndex(tok, len(v.Items)); ok && i < len(v.Items) {
			return v.Items[i]
		}
	}
	return nil
}

func memberIndex(v *jsonpos.Value, name string) int {
	for i, m := range v.Members {
		if m.Name == name {
			return i
		}
	}
	return -1
}

// arrayIndex parses an RFC 6901 array index ("-" is n); leading zeros and
// signs are not indexes.
func arrayIndex(tok string, n int) (int, bool) {
	if tok == "-" {
		return n, true
	}
	if tok == "" || (len(tok) > 1 && tok[0] == '0') || strings.TrimLeft(tok, "0123456789") != "" {
		return 0, false
	}
	i, err := strconv.Atoi(tok)
	return i, err == nil && i <= n
}

// nameEnd is the offset just past a member name's closing quote.
func nameEnd(src []byte, m jsonpos.Member) int {
	colon := bytes.LastIndexByte(src[m.NameAt:m.Value.Start], ':')
	return m.NameAt + bytes.LastIndexByte(src[m.NameAt:m.NameAt+colon], '"') + 1
}

// spans lists where each member (from its name) or element starts and ends
// in a container, and the index tok names (-1 if none).
func spans(src []byte, v *jsonpos.Value, tok string) (starts, ends []int, at int) {
	at = -1
	if v.Kind == jsonpos.Object {
		for i, m := range v.Members {
			starts, ends = append(starts, m.NameAt), append(ends, m.Value.End)
			if m.Name == tok {
				at = i
			}
		}
		return starts, ends, at
	}
	for _, it := range v.Items {
		starts, ends = append(starts, it.Start), append(ends, it.End)
	}
	if i, ok := arrayIndex(tok, len(v.Items)); ok && i < len(v.Items) {
		at = i
	}
	return starts, ends, at
}

// insert adds a new member (object) or element (array, before index tok).
func (d *doc) insert(parent *jsonpos.Value, tok string, value any, ptr string) ([]byte, error) {
	e, err := d.insertEdit(parent, tok, value, ptr)
	if err != nil {
		return nil, err
	}
	return splice(d.src, e.start, e.end, e.with), nil
}

// edit is one change to the text: src[start:end] becomes with.
type edit struct {
	start, end int
	with       []byte
}

// insertEdit is the edit that adds value as tok of parent.
func (d *doc) insertEdit(parent *jsonpos.Value, tok string, value any, ptr string) (edit, error) {
	starts, ends, _ := spans(d.src, parent, tok)
	pos := len(starts)
	if parent.Kind == jsonpos.Array {
		i, ok := arrayIndex(tok, len(parent.Items))
		if !ok {
			return edit{}, fmt.Errorf("%s: %q is not an index of an array of %d", ptr, tok, len(parent.Items))
		}
		pos = i
	}
	var head []byte // the member name and separator, for objects
	if parent.Kind == jsonpos.Object {
		name, err := encodeName(tok)
		if err != nil {
			return edit{}, err
		}
		head = append(name, d.keySeparator(parent)...)
	}
	if len(starts) == 0 {
		return d.insertIntoEmpty(parent, head, value)
	}
	// Lay the new entry out like its neighbour: same leading whitespace.
	lead := d.leadingSpace(parent, starts, ends, min(pos, len(starts)-1))
	enc, err := d.encode(value, starts[min(pos, len(starts)-1)])
	if err != nil {
		return edit{}, err
	}
	entry := append(head, enc...)
	if pos == len(starts) { // append after the last one
		return edit{ends[pos-1], ends[pos-1], concat(",", lead, entry)}, nil
	}
	return edit{starts[pos], starts[pos], concat(entry, ",", lead)}, nil
}

// insertIntoEmpty is the edit writing the first entry of an empty container.
func (d *doc) insertIntoEmpty(parent *jsonpos.Value, head []byte, value any) (edit, error) {
	if d.unit == "" {
		enc, err := d.encode(value, parent.Start)
		if err != nil {
			return edit{}, err
		}
		return edit{parent.Start + 1, parent.End - 1, append(head, enc...)}, nil
	}
	outer := d.lineIndent(parent.Start)
	inner := outer + d.unit
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent(inner, d.unit)
	if err := enc.Encode(value); err != nil {
		return edit{}, fmt.Errorf("encode value: %w", err)
	}
	body := concat("\n", inner, head, bytes.TrimRight(buf.Bytes(), "\n"), "\n", outer)
	return edit{parent.Start + 1, parent.End - 1, body}, nil
}

// leadingSpace is the whitespace before entry i: after the previous comma,
// or after the opening bracket for the first.
func (d *doc) leadingSpace(parent *jsonpos.Value, starts, ends []int, i int) string {
	from := parent.Start + 1
	if i > 0 {
		from = ends[i-1] + bytes.IndexByte(d.src[ends[i-1]:starts[i]], ',') + 1
	} else if len(starts) > 1 { // prefer the space between entries over the one after "{"
		from = ends[0] + bytes.IndexByte(d.src[ends[0]:starts[1]], ',') + 1
		return string(d.src[from:starts[1]])
	}
	lead := string(d.src[from:starts[i]])
	if i == 0 && !strings.Contains(lead, "\n") && bytes.Contains(d.src, []byte(", ")) {
		return " " // a one-entry line like {"a": 1}: space as the document does after commas
	}
	return lead
}

// keySeparator is what the object writes between a name and its value
// (": " or ":"), taken from its first member.
func (d *doc) keySeparator(obj *jsonpos.Value) string {
	if len(obj.Members) == 0 {
		if d.unit == "" && !bytes.Contains(d.src, []byte(": ")) {
			return ":"
		}
		return ": "
	}
	m := obj.Members[0]
	return string(d.src[nameEnd(d.src, m):m.Value.Start])
}

// concat concatenates strings and byte slices.
func concat(parts ...any) []byte {
	var b []byte
	for _, p := range parts {
		switch p := p.(type) {
		case string:
			b = append(b, p...)
		case []byte:
			b = append(b, p...)
		}
	}
	return b
}
