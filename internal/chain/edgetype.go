package chain

import (
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"strings"
)

// This file judges what an edge carries against what the input at its end
// accepts, from the two node types' JSON Schemas. It reports only definite
// conflicts: type sets that cannot meet, enum/const sets with no common
// value, a required member the upstream's closed object cannot carry. A
// schema it cannot read definitely ($ref, oneOf, anyOf, allOf, not, if) or
// one that is missing or open stays silent: a rule that cries wolf here
// would be switched off.

// maxSchemaDepth bounds how deep nested properties and items are compared.
const maxSchemaDepth = 8

// carriedValue is the schema of what edge e hands over, with words naming
// it for messages (nil when unknown).
func (a *analyzer) carriedValue(e Edge) (map[string]any, string) {
	up := a.d.Node(e.From)
	if up == nil {
		return nil, ""
	}
	s := a.outputSchema(up)
	if !s.ok {
		return nil, ""
	}
	where := fmt.Sprintf("%s@%s", up.Type.Pack, up.Type.PackVersion)
	port := e.FromPort
	if port == "" {
		if m, ok := s.props["output"].(map[string]any); ok {
			return m, fmt.Sprintf("member \"output\" of the output of %q (%s)", up.ID, where)
		}
		whole := map[string]any{"type": "object", "properties": s.props}
		if s.closed {
			whole["additionalProperties"] = false
		}
		return whole, fmt.Sprintf("the output of %q (%s)", up.ID, where)
	}
	first, rest, _ := strings.Cut(port, ".")
	m, _ := s.props[first].(map[string]any)
	if rest != "" {
		m = descend(m, rest)
	}
	if m == nil {
		return nil, ""
	}
	return m, fmt.Sprintf("member %q of the output of %q (%s)", port, up.ID, where)
}

// descend follows a dotted path through nested properties (nil when a
// step is not declared plainly).
func descend(m map[string]any, path string) map[string]any {
	for _, step := range strings.Split(path, ".") {
		if m == nil || opaque(m) {
			return nil
		}
		props, _ := m["properties"].(map[string]any)
		m, _ = props[step].(map[string]any)
	}
	return m
}

// carried summarises what an edge hands over, for readers of the graph.
func (a *analyzer) carried(e Edge) *Carried {
	m, _ := a.carriedValue(e)
	if m == nil {
		return nil
	}
	c := &Carried{Types: typeSet(m), Closed: closedObject(m)}
	if props, ok := m["properties"].(map[string]any); ok {
		for k := range props {
			c.Properties = append(c.Properties, k)
		}
		slices.Sort(c.Properties)
	}
	return c
}

// edgeTypeConflicts compares each edge's carried value with the input it
// binds: the port's input for an edge to "node.port", and for a port-less
// edge each input whose binding is that edge.
func (a *analyzer) edgeTypeConflicts() {
	for _, e := range a.d.Edges {
		down := a.d.Node(e.To)
		if down == nil {
			continue
		}
		up, upDesc := a.carriedValue(e)
		in := a.inputSchema(down)
		if up == nil || !in.ok {
			continue
		}
		if e.ToPort != "" {
			first, rest, _ := strings.Cut(e.ToPort, ".")
			target, _ := in.props[first].(map[string]any)
			if rest != "" {
				target = descend(target, rest)
			}
			if e.FromPort == "" && a.wholeMapMeets(e, target) {
				continue
			}
			a.conflict(e, down, upDesc, e.ToPort, up, target)
			continue
		}
		upProps, _ := up["properties"].(map[string]any)
		if opaque(up) {
			continue
		}
		for _, b := range down.Inputs {
			if b.Source != SourceEdge || b.Pointer != e.Pointer || b.Unsure {
				continue
			}
			target, _ := in.props[b.Input].(map[string]any)
			member, _ := upProps[b.Input].(map[string]any)
			a.conflict(e, down, fmt.Sprintf("member %q of %s", b.Input, upDesc), b.Input, member, target)
		}
	}
}

// wholeMapMeets: an edge from a node without a port into an input port
// hands over either the upstream's output member "output" (where the
// reference host hands that over instead of the map) or its whole output
// map; which one the host passes is not certain, so a conflict is
// definite only when neither can fit. It reports whether the whole map
// may fit target.
func (a *analyzer) wholeMapMeets(e Edge, target map[string]any) bool {
	s := a.outputSchema(a.d.Node(e.From))
	if _, hasOutput := s.props["output"]; !hasOutput {
		return false // the whole map is the only candidate, judged by the caller
	}
	whole := map[string]any{"type": "object", "properties": s.props}
	if s.closed {
		whole["additionalProperties"] = false
	}
	return schemaConflict(whole, target, "", 0) == ""
}

func (a *analyzer) conflict(e Edge, down *Node, upDesc, input string, up, target map[string]any) {
	why := schemaConflict(up, target, "", 0)
	if why == "" {
		return
	}
	t := down.Type
	a.report(Finding{Rule: RuleEdgeTypeConflict, Pointer: e.Pointer, Node: down.ID, Edge: e.Pointer,
		Message: fmt.Sprintf("edge %s -> %s: input %q of %q gets %s, but %s's input schema (%s@%s) %s; no value fits both, so the node refuses what the edge carries: wire a port that carries the right kind, or convert it in a node between",
			End(e.From, e.FromPort), End(e.To, e.ToPort), input, down.ID, upDesc, t.TypeID, t.Pack, t.PackVersion, why)})
}

// End names one end of an edge or a binding's upstream: "node.port", or
// "node" alone when the whole output map (or input) is meant.
func End(node, port string) string {
	if port == "" {
		return node
	}
	return node + "." + port
}

// opaque reports a schema whose accepted values wop does not read
// definitely: combinators and references.
func opaque(m map[string]any) bool {
	for _, k := range []string{"$ref", "$dynamicRef", "oneOf", "anyOf", "allOf", "not", "if"} {
		if _, ok := m[k]; ok {
			return true
		}
	}
	return false
}

// schemaConflict says why no value can fit both up (what is carried) and
// down (what is accepted), at member path at ("" when they may meet).
func schemaConflict(up, down map[string]any, at string, depth int) string {
	if up == nil || down == nil || opaque(up) || opaque(down) || depth > maxSchemaDepth {
		return ""
	}
	where := ""
	if at != "" {
		where = fmt.Sprintf(" at %q", at)
	}
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
	return nestedConflict(up, down, at, depth)
}

// requiredConflict: down requires a member the closed object up cannot
// carry. It holds only when both can only be objects.
func requiredConflict(up, down map[string]any, where string) string {
	if !closedObject(up) || !onlyObject(up) || !onlyObject(down) {
		return ""
	}
	props, _ := up["properties"].(map[string]any)
	req, _ := down["required"].([]any)
	for _, r := range req {
		name, _ := r.(string)
		if _, ok := props[name]; !ok && name != "" {
			return fmt.Sprintf("requires member %q%s, which the edge's closed object cannot carry (it has %s)", name, where, KeyList(props))
		}
	}
	return ""
}

// nestedConflict compares the members both declare, and array items.
func nestedConflict(up, down map[string]any, at string, depth int) string {
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
		if why := schemaConflict(u, d, join(at, k), depth+1); why != "" {
			return why
		}
	}
	ui, _ := up["items"].(map[string]any)
	di, _ := down["items"].(map[string]any)
	if ui != nil && di != nil && onlyArray(up) && onlyArray(down) {
		return schemaConflict(ui, di, join(at, "[]"), depth+1)
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
