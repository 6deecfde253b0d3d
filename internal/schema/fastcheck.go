package schema

import (
	"encoding/json"
	"github.com/wop-cli/wop/internal/regex"
	"regexp"
	"strconv"
	"strings"
)

// The library checks every pack schema against the 2020-12 metaschema
// before compiling it, and that check is most of a cold lint's schema time
// (the metaschema's $dynamicRefs and unevaluated keywords make each schema
// object cost dozens of validations). Pack schemas are nearly always plain:
// types, properties, required, bounds, enums, a pattern or two. surelyCompile
// recognises that plain shape and says "compiles" only when it is certain
// the library would also compile every document without error; whenever it
// is unsure (a keyword outside the shape, a $ref to another document, an
// unusual $id or number) it says so and CompilePack asks the library, which
// produces every message. It never decides that a schema is invalid.
// TestFastCheckAgreesWithLibrary and FuzzFastCheckAgreesWithLibrary hold it
// to the library's verdict.

// draft2020Schema is the one $schema value the fast check accepts.
const draft2020Schema = "https://json-schema.org/draft/2020-12/schema"

// plainURL is an absolute https URL of plain segments: the library parses,
// registers and resolves it as written (no escapes, dot segments, ports,
// fragments, or upper-case host to normalise).
var plainURL = regex.Lazy(`^https://[a-z0-9]([a-z0-9.-]*[a-z0-9])?(/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$`)

// localRef is a $ref to a JSON pointer in the same document whose tokens
// need no unescaping.
var localRef = regex.Lazy(`^#(/[A-Za-z0-9_$.-]+)*$`)

// plainNumber is a JSON number the library reads exactly (no exponent).
var plainNumber = regex.Lazy(`^-?(0|[1-9][0-9]{0,14})(\.[0-9]{1,14})?$`)

// smallCount is a non-negative integer that fits an int everywhere.
var smallCount = regex.Lazy(`^(0|[1-9][0-9]{0,8})$`)

// simpleType reports whether s is a 2020-12 type name.
func simpleType(s string) bool {
	switch s {
	case "array", "boolean", "integer", "null", "number", "object", "string":
		return true
	}
	return false
}

// libraryKeyword reports whether the library or the 2020-12 metaschema give
// member k a meaning in some draft. A member outside this list is ignored
// by both (not checked, not compiled, not searched for $ids), so the fast
// check may ignore it too; a member in it that the fast check does not
// handle makes it unsure. (A switch, not a map: nothing to build at
// start-up.)
func libraryKeyword(k string) bool {
	switch k {
	case "$anchor", "$comment", "$defs", "$dynamicAnchor", "$dynamicRef", "$id",
		"$recursiveAnchor", "$recursiveRef", "$ref", "$schema", "$vocabulary",
		"additionalItems", "additionalProperties", "allOf", "anyOf", "const",
		"contains", "contentEncoding", "contentMediaType", "contentSchema", "default",
		"definitions", "dependencies", "dependentRequired", "dependentSchemas",
		"deprecated", "description", "else", "enum", "examples",
		"exclusiveMaximum", "exclusiveMinimum", "format", "id", "if", "items",
		"maxContains", "maxItems", "maxLength", "maxProperties", "maximum",
		"minContains", "minItems", "minLength", "minProperties", "minimum",
		"multipleOf", "not", "oneOf", "pattern", "patternProperties",
		"prefixItems", "properties", "propertyNames", "readOnly", "required",
		"then", "title", "type", "unevaluatedItems", "unevaluatedProperties",
		"uniqueItems", "writeOnly":
		return true
	}
	return false
}

// surelyCompile reports whether the library is certain to compile every
// document without an error: each is a plain schema (see fastChecker), its
// URL is plain, and no two share one. false means "ask the library".
func surelyCompile(docs []Document) bool {
	seen := make(map[string]bool, len(docs))
	for _, d := range docs {
		if seen[d.URL] || !plainDocURL(d.URL) {
			return false
		}
		seen[d.URL] = true
		if !surelyValid(d) {
			return false
		}
	}
	return true
}

// plainDocURL is a URL the library registers as written and never treats
// as one of its metaschemas (whose documents it does not check).
func plainDocURL(u string) bool {
	return plainURL().MatchString(u) && !strings.HasPrefix(u, "https://json-schema.org/")
}

// surelyValid reports whether one document is a plain schema that the
// library compiles without error on its own.
func surelyValid(d Document) bool {
	if _, ok := d.Doc.(bool); ok {
		return true
	}
	root, ok := d.Doc.(map[string]any)
	if !ok {
		return false
	}
	if id, has := root["$id"]; has && id != d.URL {
		return false
	}
	var c fastChecker
	if !c.schema(root, true) {
		return false
	}
	for _, ref := range c.refs {
		if !reachesSchema(root, ref) {
			return false
		}
	}
	return true
}

// fastChecker walks one document's schema positions, collecting the local
// $refs to resolve once the walk is done.
type fastChecker struct {
	refs []string
}

// schema checks a subschema at ptr: true or false, or an object whose
// every member is plain.
func (c *fastChecker) schema(v any, root bool) bool {
	switch v := v.(type) {
	case bool:
		return true
	case map[string]any:
		for k, x := range v {
			if !c.member(k, x, root) {
				return false
			}
		}
		return true
	}
	return false
}

// member checks one member of a schema object.
func (c *fastChecker) member(k string, v any, root bool) bool {
	switch k {
	case "$schema":
		return v == draft2020Schema
	case "$id":
		// Only the root's, equal to the document's URL (checked by the
		// caller): a nested $id starts a new resource.
		return root
	case "$comment", "title", "description", "format":
		return isString(v)
	case "type":
		return typeValue(v)
	case "enum", "examples":
		_, ok := v.([]any)
		return ok
	case "const", "default":
		return true
	case "required":
		return uniqueStrings(v)
	case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum":
		return numberMatches(v, plainNumber())
	case "multipleOf":
		return numberMatches(v, plainNumber()) && positive(v)
	case "minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties":
		return numberMatches(v, smallCount())
	case "uniqueItems", "deprecated", "readOnly", "writeOnly":
		_, ok := v.(bool)
		return ok
	case "pattern":
		s, ok := v.(string)
		return ok && compiles(s)
	case "$ref":
		s, ok := v.(string)
		if !ok || !localRef().MatchString(s) {
			return false
		}
		c.refs = append(c.refs, s)
		return true
	case "properties", "$defs":
		return c.schemaMap(v, false)
	case "patternProperties":
		return c.schemaMap(v, true)
	case "additionalProperties", "items", "not", "if", "then", "else", "propertyNames":
		return c.schema(v, false)
	case "allOf", "anyOf", "oneOf":
		arr, ok := v.([]any)
		if !ok || len(arr) == 0 {
			return false
		}
		for _, x := range arr {
			if !c.schema(x, false) {
				return false
			}
		}
		return true
	}
	return !libraryKeyword(k)
}

// schemaMap checks an object whose members are subschemas; with patterns,
// each member name must also compile as a regular expression.
func (c *fastChecker) schemaMap(v any, patterns bool) bool {
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	for name, x := range m {
		if patterns && !compiles(name) {
			return false
		}
		if !c.schema(x, false) {
			return false
		}
	}
	return true
}

// reachesSchema reports whether a local $ref (matching localRef) leads from
// the root through schema positions only (the ones fastChecker walks, and so
// has checked) to a subschema: "#/$defs/a", "#/properties/b/items".
func reachesSchema(root any, ref string) bool {
	tokens := strings.Split(strings.TrimPrefix(ref, "#"), "/")[1:]
	v := root
	for i := 0; i < len(tokens); i++ {
		obj, ok := v.(map[string]any)
		if !ok {
			return false
		}
		switch k := tokens[i]; k {
		case "properties", "$defs", "patternProperties":
			m, ok := obj[k].(map[string]any)
			if !ok || i+1 == len(tokens) {
				return false
			}
			i++
			if v, ok = m[tokens[i]]; !ok {
				return false
			}
		case "additionalProperties", "items", "not", "if", "then", "else", "propertyNames":
			if v, ok = obj[k]; !ok {
				return false
			}
		case "allOf", "anyOf", "oneOf":
			arr, ok := obj[k].([]any)
			if !ok || i+1 == len(tokens) {
				return false
			}
			i++
			n, err := strconv.Atoi(tokens[i])
			if err != nil || n < 0 || n >= len(arr) || strconv.Itoa(n) != tokens[i] {
				return false
			}
			v = arr[n]
		default:
			return false
		}
	}
	return true
}

// compiles reports whether the library's default regexp engine (Go's
// regexp, which it uses both for the metaschema's "regex" format and to
// compile patterns) accepts s.
func compiles(s string) bool {
	_, err := regexp.Compile(s)
	return err == nil
}

func isString(v any) bool {
	_, ok := v.(string)
	return ok
}

// typeValue is a type name, or a non-empty array of distinct type names.
func typeValue(v any) bool {
	switch v := v.(type) {
	case string:
		return simpleType(v)
	case []any:
		if len(v) == 0 {
			return false
		}
		for _, x := range v {
			if s, ok := x.(string); !ok || !simpleType(s) {
				return false
			}
		}
		return uniqueStrings(v)
	}
	return false
}

// uniqueStrings is an array of distinct strings.
func uniqueStrings(v any) bool {
	arr, ok := v.([]any)
	if !ok {
		return false
	}
	seen := make(map[string]bool, len(arr))
	for _, x := range arr {
		s, ok := x.(string)
		if !ok || seen[s] {
			return false
		}
		seen[s] = true
	}
	return true
}

// numberMatches is a number (as decoded with UseNumber) whose text matches re.
func numberMatches(v any, re *regexp.Regexp) bool {
	n, ok := v.(json.Number)
	return ok && re.MatchString(string(n))
}

// positive is a plain number above zero.
func positive(v any) bool {
	f, err := strconv.ParseFloat(string(v.(json.Number)), 64)
	return err == nil && f > 0
}
