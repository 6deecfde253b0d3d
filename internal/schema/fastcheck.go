package schema

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/regex"
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
// document without an error: each comes with its parsed Source and is a
// plain schema (see fastChecker), its URL is plain, and no two share one.
// false means "ask the library".
func surelyCompile(docs []Document) bool {
	seen := make(map[string]bool, len(docs))
	for _, d := range docs {
		if d.Source == nil || seen[d.URL] || !plainDocURL(d.URL) {
			return false
		}
		seen[d.URL] = true
		if !surelyValid(d.URL, d.Source) {
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

// surelyValid reports whether one document, registered under url, is a
// plain schema that the library compiles without error on its own. It
// reads the parsed tree, whose Interface is what the library would get:
// objects hold no repeated names (the parser reports those apart).
func surelyValid(url string, root *jsonpos.Value) bool {
	if root.Kind == jsonpos.Bool {
		return true
	}
	if root.Kind != jsonpos.Object {
		return false
	}
	if id := root.Get("$id"); id != nil && (id.Kind != jsonpos.String || id.Str != url) {
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

// schema checks a subschema: true or false, or an object whose every
// member is plain.
func (c *fastChecker) schema(v *jsonpos.Value, root bool) bool {
	switch v.Kind {
	case jsonpos.Bool:
		return true
	case jsonpos.Object:
		for _, m := range v.Members {
			if !c.member(m.Name, m.Value, root) {
				return false
			}
		}
		return true
	}
	return false
}

// member checks one member of a schema object.
func (c *fastChecker) member(k string, v *jsonpos.Value, root bool) bool {
	switch k {
	case "$schema":
		return v.Kind == jsonpos.String && v.Str == draft2020Schema
	case "$id":
		// Only the root's, equal to the document's URL (checked by the
		// caller): a nested $id starts a new resource.
		return root
	case "$comment", "title", "description", "format":
		return v.Kind == jsonpos.String
	case "type":
		return typeValue(v)
	case "enum", "examples":
		return v.Kind == jsonpos.Array
	case "const", "default":
		return true
	case "required":
		return uniqueStrings(v)
	case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum":
		return v.Kind == jsonpos.Number && plainNumber().MatchString(v.Num)
	case "multipleOf":
		return v.Kind == jsonpos.Number && plainNumber().MatchString(v.Num) && positive(v.Num)
	case "minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties":
		return v.Kind == jsonpos.Number && smallCount().MatchString(v.Num)
	case "uniqueItems", "deprecated", "readOnly", "writeOnly":
		return v.Kind == jsonpos.Bool
	case "pattern":
		return v.Kind == jsonpos.String && compiles(v.Str)
	case "$ref":
		if v.Kind != jsonpos.String || !localRef().MatchString(v.Str) {
			return false
		}
		c.refs = append(c.refs, v.Str)
		return true
	case "properties", "$defs":
		return c.schemaMap(v, false)
	case "patternProperties":
		return c.schemaMap(v, true)
	case "additionalProperties", "items", "not", "if", "then", "else", "propertyNames":
		return c.schema(v, false)
	case "allOf", "anyOf", "oneOf":
		if v.Kind != jsonpos.Array || len(v.Items) == 0 {
			return false
		}
		for _, x := range v.Items {
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
func (c *fastChecker) schemaMap(v *jsonpos.Value, patterns bool) bool {
	if v.Kind != jsonpos.Object {
		return false
	}
	for _, m := range v.Members {
		if patterns && !compiles(m.Name) {
			return false
		}
		if !c.schema(m.Value, false) {
			return false
		}
	}
	return true
}

// reachesSchema reports whether a local $ref (matching localRef) leads from
// the root through schema positions only (the ones fastChecker walks, and so
// has checked) to a subschema: "#/$defs/a", "#/properties/b/items".
func reachesSchema(root *jsonpos.Value, ref string) bool {
	tokens := strings.Split(strings.TrimPrefix(ref, "#"), "/")[1:]
	v := root
	for i := 0; i < len(tokens); i++ {
		if v.Kind != jsonpos.Object {
			return false
		}
		switch k := tokens[i]; k {
		case "properties", "$defs", "patternProperties":
			m := v.Get(k)
			if m == nil || m.Kind != jsonpos.Object || i+1 == len(tokens) {
				return false
			}
			i++
			if v = m.Get(tokens[i]); v == nil {
				return false
			}
		case "additionalProperties", "items", "not", "if", "then", "else", "propertyNames":
			if v = v.Get(k); v == nil {
				return false
			}
		case "allOf", "anyOf", "oneOf":
			arr := v.Get(k)
			if arr == nil || arr.Kind != jsonpos.Array || i+1 == len(tokens) {
				return false
			}
			i++
			n, err := strconv.Atoi(tokens[i])
			if err != nil || n < 0 || n >= len(arr.Items) || strconv.Itoa(n) != tokens[i] {
				return false
			}
			v = arr.Items[n]
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

// typeValue is a type name, or a non-empty array of distinct type names.
func typeValue(v *jsonpos.Value) bool {
	switch v.Kind {
	case jsonpos.String:
		return simpleType(v.Str)
	case jsonpos.Array:
		if len(v.Items) == 0 {
			return false
		}
		for _, x := range v.Items {
			if x.Kind != jsonpos.String || !simpleType(x.Str) {
				return false
			}
		}
		return uniqueStrings(v)
	}
	return false
}

// uniqueStrings is an array of distinct strings.
func uniqueStrings(v *jsonpos.Value) bool {
	if v.Kind != jsonpos.Array {
		return false
	}
	seen := make(map[string]bool, len(v.Items))
	for _, x := range v.Items {
		if x.Kind != jsonpos.String || seen[x.Str] {
			return false
		}
		seen[x.Str] = true
	}
	return true
}

// positive is a plain number above zero.
func positive(n string) bool {
	f, err := strconv.ParseFloat(n, 64)
	return err == nil && f > 0
}
