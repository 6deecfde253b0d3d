package chain

import (
	"encoding/json"
	"strings"
	"testing"
)

// schemaConflict says why no value can fit both up and down, each its own
// document ("" when they may meet).
func schemaConflict(up, down map[string]any) string {
	j := &judge{upRoot: up, downRoot: down}
	return j.conflict(up, down, "", 0)
}

func schemaOfJSON(t *testing.T, s string) map[string]any {
	t.Helper()
	if s == "" {
		return nil
	}
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestSchemaConflict: only definite conflicts are reported; a missing
// or open schema, a $ref wop cannot follow and a oneOf/anyOf with a
// branch that may fit are silent.
func TestSchemaConflict(t *testing.T) {
	for _, tc := range []struct {
		name, up, down string
		want           string // substring of the reason; "" for none
	}{
		{"same type", `{"type": "string"}`, `{"type": "string"}`, ""},
		{"integer fits number", `{"type": "integer"}`, `{"type": "number"}`, ""},
		{"number may be an integer", `{"type": "number"}`, `{"type": "integer"}`, ""},
		{"types cannot meet", `{"type": "integer"}`, `{"type": "string"}`, "accepts type string where the edge carries type integer"},
		{"type sets meet in null", `{"type": ["number", "null"]}`, `{"type": ["string", "null"]}`, ""},
		{"type sets cannot meet", `{"type": ["number", "null"]}`, `{"type": ["string", "boolean"]}`, "accepts types string, boolean"},
		{"missing type", `{}`, `{"type": "string"}`, ""},
		{"missing schema", ``, `{"type": "string"}`, ""},
		{"enums meet", `{"enum": ["a", "b"]}`, `{"enum": ["b", "c"]}`, ""},
		{"enums apart", `{"enum": ["a", "b"]}`, `{"enum": ["c"]}`, `accepts only the value "c" where the edge carries the values "a", "b"`},
		{"const against enum", `{"const": 1}`, `{"enum": [1.0, 2]}`, ""},
		{"const apart", `{"const": "x"}`, `{"const": "y"}`, "accepts only the value"},
		{"enum values of no accepted type", `{"enum": ["1", "2"]}`, `{"type": "integer"}`, "accepts type integer where the edge carries only the values"},
		{"accepted values of no carried type", `{"type": "boolean"}`, `{"enum": ["yes", "no"]}`, "where the edge carries type boolean"},
		{"enum value of an accepted type", `{"enum": [1, "x"]}`, `{"type": "string"}`, ""},
		{"required member the closed object lacks", `{"type": "object", "additionalProperties": false, "properties": {"a": {}}}`,
			`{"type": "object", "required": ["a", "b"]}`, `requires member "b"`},
		{"required member of an open object", `{"type": "object", "properties": {"a": {}}}`, `{"type": "object", "required": ["b"]}`, ""},
		{"required member with patternProperties", `{"type": "object", "additionalProperties": false, "patternProperties": {"^x": {}}}`, `{"type": "object", "required": ["xb"]}`, ""},
		{"required member where either may be no object", `{"type": ["object", "null"], "additionalProperties": false}`, `{"type": "object", "required": ["b"]}`, ""},
		{"nested member", `{"type": "object", "properties": {"n": {"type": "string"}}}`, `{"type": "object", "properties": {"n": {"type": "integer"}}}`, `at "n"`},
		{"array items", `{"type": "array", "items": {"type": "string"}}`, `{"type": "array", "items": {"type": "object"}}`, `at "[]"`},
		{"$ref naming nothing is silent", `{"$ref": "#/x"}`, `{"type": "string"}`, ""},
		{"$ref into another document is silent", `{"$ref": "item.json#/$defs/x"}`, `{"type": "string"}`, ""},
		{"$ref to an anchor is silent", `{"$ref": "#item", "$defs": {"i": {"$anchor": "item", "type": "integer"}}}`, `{"type": "string"}`, ""},
		{"$ref to $defs", `{"type": "array", "items": {"$ref": "#/$defs/item"}, "$defs": {"item": {"type": "integer"}}}`,
			`{"type": "array", "items": {"type": "string"}}`, `accepts type string at "[]" where the edge carries type integer`},
		{"$ref to definitions on the input", `{"type": "integer"}`, `{"$ref": "#/definitions/text", "definitions": {"text": {"type": "string"}}}`, "accepts type string"},
		{"$ref with an escaped pointer", `{"$ref": "#/$defs/a~1b", "$defs": {"a/b": {"type": "integer"}}}`, `{"type": "string"}`, "accepts type string"},
		{"$ref chain", `{"$ref": "#/$defs/a", "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"type": "integer"}}}`, `{"type": "string"}`, "accepts type string"},
		{"$ref chain that meets", `{"$ref": "#/$defs/a", "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"type": "string"}}}`, `{"type": "string"}`, ""},
		{"$ref cycle is silent", `{"$ref": "#/$defs/a", "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}}`, `{"type": "string"}`, ""},
		{"$ref to itself is silent", `{"$ref": "#"}`, `{"type": "string"}`, ""},
		{"recursive schema is bounded", `{"$defs": {"n": {"type": "object", "properties": {"next": {"$ref": "#/$defs/n"}, "v": {"type": "integer"}}}}, "$ref": "#/$defs/n"}`,
			`{"$defs": {"n": {"type": "object", "properties": {"next": {"$ref": "#/$defs/n"}, "v": {"type": "integer"}}}}, "$ref": "#/$defs/n"}`, ""},
		{"oneOf input where every branch conflicts", `{"type": "integer"}`, `{"oneOf": [{"type": "string"}, {"type": "boolean"}]}`,
			"refuses it in each of its 2 oneOf branches: the first accepts type string"},
		{"oneOf input where one branch fits", `{"type": "integer"}`, `{"oneOf": [{"type": "string"}, {"type": "number"}]}`, ""},
		{"anyOf input with an open branch", `{"type": "integer"}`, `{"anyOf": [{"type": "string"}, {}]}`, ""},
		{"anyOf input with a branch wop cannot read", `{"type": "integer"}`, `{"anyOf": [{"type": "string"}, {"$ref": "other.json"}]}`, ""},
		{"anyOf upstream where every branch conflicts", `{"anyOf": [{"type": "string"}, {"type": "boolean"}]}`, `{"type": "integer"}`,
			"refuses each of the 2 anyOf branches the upstream's schema allows"},
		{"anyOf upstream with siblings", `{"anyOf": [{"minLength": 1}], "type": "string"}`, `{"type": "integer"}`, "accepts type integer where the edge carries type string"},
		{"oneOf of $refs", `{"type": "integer"}`, `{"oneOf": [{"$ref": "#/$defs/a"}, {"$ref": "#/$defs/b"}], "$defs": {"a": {"type": "string"}, "b": {"type": "array"}}}`, "each of its 2 oneOf branches"},
		{"allOf member that conflicts", `{"type": "integer"}`, `{"allOf": [{"description": "x"}, {"type": "string"}]}`, "in member 2 of its allOf"},
		{"not is silent", `{"type": "integer"}`, `{"not": {"type": "integer"}}`, ""},
		{"not with a type still compares the type", `{"type": "integer"}`, `{"not": {"const": 3}, "type": "string"}`, "accepts type string"},
		{"member the upstream requires that the closed input refuses", `{"type": "object", "required": ["a", "b"], "properties": {"a": {}, "b": {}}}`,
			`{"type": "object", "additionalProperties": false, "properties": {"a": {}}}`, `without member "b"`},
		{"member the upstream requires that the open input allows", `{"type": "object", "required": ["b"]}`, `{"type": "object", "properties": {"a": {}}}`, ""},
		{"member the upstream requires, input not only an object", `{"type": "object", "required": ["b"]}`, `{"type": ["object", "string"], "additionalProperties": false}`, ""},
		{"member the upstream requires, input patterned", `{"type": "object", "required": ["xb"]}`, `{"type": "object", "additionalProperties": false, "patternProperties": {"^x": {}}}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := schemaConflict(schemaOfJSON(t, tc.up), schemaOfJSON(t, tc.down))
			if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
				t.Errorf("schemaConflict = %q, want %q", got, tc.want)
			}
		})
	}
}

// FuzzSchemaConflict: any two schemas are compared without a panic, in
// bounded time whatever their $refs and combinators, and the same twice.
func FuzzSchemaConflict(f *testing.F) {
	f.Add(`{"$ref": "#/$defs/a", "$defs": {"a": {"anyOf": [{"$ref": "#"}, {"$ref": "#/$defs/a"}]}}}`, `{"oneOf": [{"$ref": "#"}, {"type": "string"}]}`)
	f.Add(`{"type": "array", "items": {"$ref": "#/$defs/i"}, "$defs": {"i": {"type": "integer"}}}`, `{"type": "array", "items": {"oneOf": [{"type": "string"}, {"type": "object"}]}}`)
	f.Add(`{"type": "object", "required": ["a"], "properties": {"a": {"$ref": "#/properties/a"}}}`, `{"type": "object", "additionalProperties": false, "allOf": [{}]}`)
	f.Fuzz(func(t *testing.T, up, down string) {
		u, d := decodeSchema(up), decodeSchema(down)
		if u == nil || d == nil {
			return
		}
		if a, b := schemaConflict(u, d), schemaConflict(u, d); a != b {
			t.Fatalf("two comparisons differ: %q, %q", a, b)
		}
	})
}

func decodeSchema(s string) map[string]any {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var m map[string]any
	if dec.Decode(&m) != nil {
		return nil
	}
	return m
}

// TestSchemaConflictBounded: a schema whose combinators multiply at every
// level (each branch a $ref back to it) is judged within the step bound.
func TestSchemaConflictBounded(t *testing.T) {
	branches := strings.Repeat(`{"$ref": "#"}, `, 30) + `{"type": "integer"}`
	s := schemaOfJSON(t, `{"type": "array", "items": {"anyOf": [`+branches+`]}, "anyOf": [`+branches+`]}`)
	j := &judge{upRoot: s, downRoot: s}
	if why := j.conflict(s, s, "", 0); why != "" {
		t.Errorf("a schema conflicts with itself: %s", why)
	}
	// Past the bound each call returns at once: a few more are counted.
	if j.steps > maxSchemaSteps+64 {
		t.Errorf("%d steps, bound %d", j.steps, maxSchemaSteps)
	}
}
