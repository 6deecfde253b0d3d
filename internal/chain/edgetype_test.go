package chain

import (
	"encoding/json"
	"strings"
	"testing"
)

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

// TestSchemaConflict: only definite conflicts are reported; a missing,
// open or opaque ($ref, oneOf, anyOf) schema is silent.
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
		{"$ref is silent", `{"$ref": "#/x"}`, `{"type": "string"}`, ""},
		{"oneOf is silent", `{"type": "integer"}`, `{"oneOf": [{"type": "string"}]}`, ""},
		{"anyOf is silent", `{"anyOf": [{"type": "string"}], "type": "string"}`, `{"type": "integer"}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := schemaConflict(schemaOfJSON(t, tc.up), schemaOfJSON(t, tc.down), "", 0)
			if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
				t.Errorf("schemaConflict = %q, want %q", got, tc.want)
			}
		})
	}
}
