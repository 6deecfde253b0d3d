package chain

import (
	"fmt"
	"slices"
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
	if why := valueConflict(up, down, where); why != "" {
		return why
	}
	if why := requiredConflict(up, down, where); why != "" {
		return why
	}
	return j.nested(up, down, at, depth)
}

// valueConflict: the types, or the const/enum values, of two plain
// schemas have none in common.
func valueConflict(up, down map[string]any, where string) string {
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
	return ""
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
