package schema

import (
	neturl "net/url"
	"regexp"
	"strconv"
	"strings"
)

// Sub is one subschema of an embedded schema: an object of its document,
// named by the document's $id and a JSON pointer into it.
type Sub struct {
	ID      string
	Pointer string
	Schema  map[string]any
}

// maxLookupSubs bounds the subschemas At gathers at one step: the embedded
// schemas combine a few dozen at most.
const maxLookupSubs = 256

// At returns the subschemas of the embedded schema id that apply to the
// instance value at path (unescaped pointer tokens): following properties,
// patternProperties, additionalProperties, items and prefixItems, and
// through $ref, allOf, anyOf, oneOf, then and else, as an editor needs to
// describe or complete a member whatever branch the author is writing.
// It returns nil when id is not embedded or the path leaves the schema.
func (s *Set) At(id string, path []string) []Sub {
	root, ok := s.Document(id).(map[string]any)
	if !ok {
		return nil
	}
	subs := s.expand([]Sub{{ID: id, Schema: root}})
	for _, tok := range path {
		var next []Sub
		for _, sub := range subs {
			next = append(next, child(sub, tok)...)
		}
		subs = s.expand(next)
		if len(subs) == 0 {
			return nil
		}
	}
	return subs
}

// expand adds to subs every subschema reached from them through $ref and
// the combinators: the set that applies to one instance value.
func (s *Set) expand(subs []Sub) []Sub {
	seen := map[string]bool{}
	var out []Sub
	for len(subs) > 0 && len(out) < maxLookupSubs {
		sub := subs[0]
		subs = subs[1:]
		key := sub.ID + "#" + sub.Pointer
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, sub)
		if ref, ok := sub.Schema["$ref"].(string); ok {
			if r, ok := s.resolve(sub.ID, ref); ok {
				subs = append(subs, r)
			}
		}
		for _, k := range []string{"allOf", "anyOf", "oneOf"} {
			list, _ := sub.Schema[k].([]any)
			for i, it := range list {
				if m, ok := it.(map[string]any); ok {
					subs = append(subs, Sub{ID: sub.ID, Pointer: sub.Pointer + "/" + k + "/" + strconv.Itoa(i), Schema: m})
				}
			}
		}
		for _, k := range []string{"then", "else"} {
			if m, ok := sub.Schema[k].(map[string]any); ok {
				subs = append(subs, Sub{ID: sub.ID, Pointer: sub.Pointer + "/" + k, Schema: m})
			}
		}
	}
	return out
}

// child returns the subschemas sub gives the member or item tok.
func child(sub Sub, tok string) []Sub {
	at := func(ptr string, v any) []Sub {
		if m, ok := v.(map[string]any); ok {
			return []Sub{{ID: sub.ID, Pointer: sub.Pointer + ptr, Schema: m}}
		}
		return nil
	}
	var out []Sub
	esc := strings.ReplaceAll(strings.ReplaceAll(tok, "~", "~0"), "/", "~1")
	if props, ok := sub.Schema["properties"].(map[string]any); ok && props[tok] != nil {
		return at("/properties/"+esc, props[tok])
	}
	matched := false
	if pats, ok := sub.Schema["patternProperties"].(map[string]any); ok {
		for expr, v := range pats {
			if re, err := regexp.Compile(expr); err == nil && re.MatchString(tok) {
				matched = true
				out = append(out, at("/patternProperties/"+strings.ReplaceAll(strings.ReplaceAll(expr, "~", "~0"), "/", "~1"), v)...)
			}
		}
	}
	if !matched {
		out = append(out, at("/additionalProperties", sub.Schema["additionalProperties"])...)
	}
	if i, err := strconv.Atoi(tok); err == nil && i >= 0 {
		prefix, _ := sub.Schema["prefixItems"].([]any)
		if i < len(prefix) {
			return append(out, at("/prefixItems/"+tok, prefix[i])...)
		}
		out = append(out, at("/items", sub.Schema["items"])...)
	}
	return out
}

// resolve follows a $ref written in the embedded document id.
func (s *Set) resolve(id, ref string) (Sub, bool) {
	base, err := neturl.Parse(id)
	if err != nil {
		return Sub{}, false
	}
	u, err := base.Parse(ref)
	if err != nil {
		return Sub{}, false
	}
	frag := u.Fragment
	u.Fragment = ""
	doc, ok := s.Document(u.String()).(map[string]any)
	if !ok {
		return Sub{}, false
	}
	var node any = doc
	if frag != "" {
		if !strings.HasPrefix(frag, "/") {
			return Sub{}, false // an anchor: the embedded schemas use none
		}
		for _, tok := range strings.Split(frag[1:], "/") {
			tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
			switch n := node.(type) {
			case map[string]any:
				node = n[tok]
			case []any:
				i, err := strconv.Atoi(tok)
				if err != nil || i < 0 || i >= len(n) {
					return Sub{}, false
				}
				node = n[i]
			default:
				return Sub{}, false
			}
		}
	}
	m, ok := node.(map[string]any)
	return Sub{ID: u.String(), Pointer: frag, Schema: m}, ok
}
