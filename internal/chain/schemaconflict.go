package chain

import (
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
)

// This file says whether any value can fit two JSON Schemas: what an edge
// carries (up) and what the input at its end accepts (down). Every answer
// is definite. It reads each side as a superset of the values it allows:
// a local $ref as its target, a oneOf/anyOf as the union of its branches
// (a conflict only where every branch conflicts), an allOf as each of its
// members, and drops the keywords it cannot read (not, if, $dynamicRef, a
// $ref into another document) only where dropping them can but widen what
// the side allows. A wider set never makes a conflict appear that the
// narrower would not have.

// Bounds: how deep nested properties and items are compared, how many
// $refs one schema may go through, and how many comparisons one edge may
// cost (oneOf branches multiply them).
const (
	maxSchemaDepth = 8
	maxRefHops     = 16
	maxSchemaSteps = 4096
)

// judge compares schemas from two documents, whose roots their local
// $refs point into.
type judge struct {
	upRoot, downRoot map[string]any
	steps            int
}

// schemaConflict says why no value can fit both up and down, each its own
// document ("" when they may meet).
func schemaConflict(up, down map[string]any) string {
	j := &judge{upRoot: up, downRoot: down}
	return j.conflict(up, down, "", 0)
}

// conflict says why no value can fit both up and down at member path at
// ("" when they may meet, or when a bound is reached).
func (j *judge) conflict(up, down map[string]any, at string, depth int) string {
	up, down = deref(up, j.upRoot), deref(down, j.downRoot)
	j.steps++
	if up == nil || down == nil || depth > maxSchemaDepth || j.steps > maxSchemaSteps {
		return ""
	}
	where := ""
	if at != "" {
		where = fmt.Sprintf(" at %q", at)
	}
	if why := j.combined(up, down, at, depth); why != "" {
		return why
	}
	up, down = plain(up), plain(down)
	ut, dt := typeSet(up), typeSet(down)
	if len(ut) > 0 && len(dt) > 0 && !slices.ContainsFunc(ut, func(t string) bool { return typesMeet(t, dt) }) {
		return fmt.Sprintf("accepts %s%s where the edge carries %s", typeWords(dt), where, typeWords(ut))
	}
	uv, uok := valueSet(up)
	dv, dok := valueSet(down)
	switch {
	case uok && dok && !slices.ContainsFunc(uv, func(v any) bool { return containsValue(dv, v) }):
		return fmt.Sprintf("accepts only %s%s where the edge carries %s", valueWords(dv), where, valueWords(uv))
	case uok && len(dt) > 0 && !slices.ContainsFunc(uv, func(v any) bool { return typesMeet(jsonType(v), dt) }):
		return fmt.Sprintf("accepts %s%s where the edge carries only %s", typeWords(dt), where, valueWords(uv))
	case dok && len(ut) > 0 && !slices.ContainsFunc(dv, func(v any) bool { return typesMeet(jsonType(v), ut) }):
		return fmt.Sprintf("accepts only %s%s where the edge carries %s", valueWords(dv), where, typeWords(ut))
	}
	if why := requiredConflict(up, down, where); why != "" {
		return why
	}
	return j.nested(up, down, at, depth)
}

// combined reads the combinators of either side: an allOf member that
// conflicts is a conflict (the side allows no more than it), a oneOf or
// anyOf is one only when each branch conflicts.
func (j *judge) combined(up, down map[string]any, at string, depth int) string {
	for _, k := range []string{"allOf", "oneOf", "anyOf"} {
		if list, ok := down[k].([]any); ok {
			i, why := j.branches(list, k, func(b map[string]any) string { return j.conflict(up, b, at, depth+1) })
			switch {
			case why != "" && k == "allOf":
				return fmt.Sprintf("refuses it in member %d of its allOf: it %s", i+1, why)
			case why != "":
				return fmt.Sprintf("refuses it in each of its %d %s branches: the first %s", len(list), k, why)
			}
		}
		if list, ok := up[k].([]any); ok {
			i, why := j.branches(list, k, func(b map[string]any) string { return j.conflict(b, down, at, depth+1) })
			switch {
			case why != "" && k == "allOf":
				return fmt.Sprintf("refuses member %d of the allOf the upstream's schema has: it %s", i+1, why)
			case why != "":
				return fmt.Sprintf("refuses each of the %d %s branches the upstream's schema allows: for the first, it %s", len(list), k, why)
			}
		}
	}
	return ""
}

// branches applies one combinator: for allOf the first member that
// conflicts and why, for oneOf and anyOf the first branch's reason when
// every branch has one ("" otherwise).
func (j *judge) branches(list []any, keyword string, conflict func(map[string]any) string) (int, string) {
	first := ""
	for i, b := range list {
		m, _ := b.(map[string]any)
		why := ""
		if m != nil {
			why = conflict(m)
		}
		switch {
		case keyword == "allOf" && why != "":
			return i, why
		case keyword != "allOf" && why == "":
			return 0, ""
		case i == 0:
			first = why
		}
	}
	if keyword == "allOf" {
		return 0, ""
	}
	return 0, first
}

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

// requiredConflict: a member one side requires and the other side's
// closed object refuses. It holds only where the closed side can only be
// an object (a value of another type would not fit it) and, for a member
// down requires, where up can only be one too.
func requiredConflict(up, down map[string]any, where string) string {
	if closedObject(up) && onlyObject(up) && onlyObject(down) {
		props, _ := up["properties"].(map[string]any)
		if name := missingRequired(down, props); name != "" {
			return fmt.Sprintf("requires member %q%s, which the edge's closed object cannot carry (it has %s)", name, where, KeyList(props))
		}
	}
	if closedObject(down) && onlyObject(down) {
		props, _ := down["properties"].(map[string]any)
		if name := missingRequired(up, props); name != "" {
			return fmt.Sprintf("is a closed object%s without member %q (it has %s), which the edge always carries (the upstream's schema requires it)", where, name, KeyList(props))
		}
	}
	return ""
}

// missingRequired is the first member m requires that props lacks.
func missingRequired(m, props map[string]any) string {
	req, _ := m["required"].([]any)
	for _, r := range req {
		name, _ := r.(string)
		if _, ok := props[name]; !ok && name != "" {
			return name
		}
	}
	return ""
}

// nested compares the members both declare, and array items.
func (j *judge) nested(up, down map[string]any, at string, depth int) string {
	up1, _ := up["properties"].(map[string]any)
	down1, _ := down["properties"].(map[string]any)
	names := make([]string, 0, len(down1))
	for k := range down1 {
		if _, ok := up1[k]; ok {
			names = append(names, k)
		}
	}
	slices.Sort(names)
	for _, k := range names {
		u, _ := up1[k].(map[string]any)
		d, _ := down1[k].(map[string]any)
		if why := j.conflict(u, d, join(at, k), depth+1); why != "" {
			return why
		}
	}
	ui, _ := up["items"].(map[string]any)
	di, _ := down["items"].(map[string]any)
	if ui != nil && di != nil && onlyArray(up) && onlyArray(down) {
		return j.conflict(ui, di, join(at, "[]"), depth+1)
	}
	return ""
}

func join(at, k string) string {
	if at == "" {
		return k
	}
	return at + "." + k
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
