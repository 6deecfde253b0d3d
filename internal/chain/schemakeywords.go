package chain

import (
	"encoding/json"
	"math/big"
	"slices"
	"strconv"
	"strings"
)

// This file reads what one JSON Schema allows, for schemaconflict.go: its
// local $refs followed, the keywords the comparison cannot read dropped,
// and its type, const/enum and object shape as sets to compare.

// deref follows m's local $refs ("#/$defs/x", "#/definitions/x", any JSON
// pointer into root) to the schema they name: nil for a $ref into another
// document, to an anchor, into a cycle or deeper than maxRefHops. The
// target alone allows no fewer values than m with its $ref's siblings.
func deref(m, root map[string]any) map[string]any {
	for hops := 0; m != nil; hops++ {
		ref, ok := m["$ref"].(string)
		if !ok {
			return m
		}
		if hops == maxRefHops {
			return nil
		}
		m = pointerTo(root, ref)
	}
	return nil
}

// pointerTo resolves a local reference "#" or "#/a/b" in root (nil when it
// is not local or names nothing that is a schema).
func pointerTo(root map[string]any, ref string) map[string]any {
	frag, local := strings.CutPrefix(ref, "#")
	if !local || root == nil || frag != "" && frag[0] != '/' {
		return nil
	}
	var cur any = root
	if frag != "" {
		for _, tok := range strings.Split(frag[1:], "/") {
			tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
			switch c := cur.(type) {
			case map[string]any:
				cur = c[tok]
			case []any:
				i, err := strconv.Atoi(tok)
				if err != nil || i < 0 || i >= len(c) {
					return nil
				}
				cur = c[i]
			default:
				return nil
			}
		}
	}
	m, _ := cur.(map[string]any)
	return m
}

// plain is m without the keywords whose meaning the comparison does not
// read: what is left allows no fewer values. A schema keeping a $ref
// (into another document) allows what wop cannot tell, so it reads as {}.
func plain(m map[string]any) map[string]any {
	if _, ref := m["$ref"]; ref {
		return map[string]any{}
	}
	if !opaque(m) {
		return m
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		if !slices.Contains(unreadKeywords, k) {
			out[k] = v
		}
	}
	return out
}

// unreadKeywords are the combinators and conditionals a plain schema
// drops.
var unreadKeywords = []string{"$dynamicRef", "oneOf", "anyOf", "allOf", "not", "if", "then", "else", "unevaluatedProperties"}

// opaque reports a schema whose accepted values wop does not read from its
// plain keywords alone: combinators, conditionals and references.
func opaque(m map[string]any) bool {
	if _, ok := m["$ref"]; ok {
		return true
	}
	for _, k := range unreadKeywords {
		if _, ok := m[k]; ok {
			return true
		}
	}
	return false
}

// typeSet reads a schema's "type" (nil: any type).
func typeSet(m map[string]any) []string {
	switch t := m["type"].(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, it := range t {
			if s, ok := it.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// typesMeet reports whether a value of type t can be of one of the types
// in set: an integer is a number, and a number may be an integer.
func typesMeet(t string, set []string) bool {
	for _, s := range set {
		if s == t || s == "number" && t == "integer" || s == "integer" && t == "number" {
			return true
		}
	}
	return false
}

func onlyObject(m map[string]any) bool {
	t := typeSet(m)
	return len(t) == 1 && t[0] == "object"
}

func onlyArray(m map[string]any) bool {
	t := typeSet(m)
	return len(t) == 1 && t[0] == "array"
}

func closedObject(m map[string]any) bool {
	if opaque(m) {
		return false
	}
	_, patterned := m["patternProperties"]
	return m["additionalProperties"] == false && !patterned
}

// valueSet reads const or enum (ok false when neither constrains).
func valueSet(m map[string]any) ([]any, bool) {
	if c, ok := m["const"]; ok {
		return []any{c}, true
	}
	if e, ok := m["enum"].([]any); ok {
		return e, true
	}
	return nil, false
}

func containsValue(set []any, v any) bool {
	return slices.ContainsFunc(set, func(w any) bool { return sameJSON(v, w) })
}

// sameJSON compares JSON values, numbers by value (1 and 1.0 are equal).
func sameJSON(a, b any) bool {
	an, aNum := a.(json.Number)
	bn, bNum := b.(json.Number)
	if aNum && bNum {
		x, okX := new(big.Rat).SetString(string(an))
		y, okY := new(big.Rat).SetString(string(bn))
		return okX && okY && x.Cmp(y) == 0
	}
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && string(ja) == string(jb)
}

// jsonType names the JSON Schema type of a decoded value ("integer" for a
// whole number).
func jsonType(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case json.Number:
		if r, ok := new(big.Rat).SetString(string(x)); ok && r.IsInt() {
			return "integer"
		}
		return "number"
	case float64:
		if x == float64(int64(x)) {
			return "integer"
		}
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return ""
}

func typeWords(ts []string) string {
	if len(ts) == 1 {
		return "type " + ts[0]
	}
	return "types " + strings.Join(ts, ", ")
}

func valueWords(vs []any) string {
	parts := make([]string, 0, len(vs))
	for i, v := range vs {
		if i == 6 {
			parts = append(parts, "...")
			break
		}
		b, _ := json.Marshal(v)
		parts = append(parts, string(b))
	}
	if len(parts) == 1 {
		return "the value " + parts[0]
	}
	return "the values " + strings.Join(parts, ", ")
}
