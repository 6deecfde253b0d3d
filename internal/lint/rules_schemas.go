package lint

import (
	"fmt"
	"slices"
	"strings"

	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/schema"
	"github.com/wop-cli/wop/internal/suggest"
)

const draft2020 = "https://json-schema.org/draft/2020-12/schema"

// syntheticBase names pack schemas that have no $id, so they can still be
// compiled and cross-referenced.
const syntheticBase = "https://wop.invalid/pack/"

func schemaURL(doc *jsonpos.Doc, name string) string {
	if id := doc.Root.Get("$id").String(); id != "" {
		return id
	}
	return syntheticBase + name
}

// wantSchemaID is the $id a pack schema must carry:
// <base>/<name>/<version>/<file>, file relative to schemas/.
func wantSchemaID(p *Pass, name string) string {
	root := p.Root()
	return fmt.Sprintf("%s/%s/%s/%s", p.Profile.SchemaBase, root.Get("name").String(), root.Get("version").String(), strings.TrimPrefix(name, "schemas/"))
}

func checkSchemaInvalid(p *Pass) {
	var docs []schema.Document
	names := map[string]string{} // url -> file
	for _, name := range jsonFiles(p) {
		doc, _, err := p.JSON(name)
		if err != nil || name == pack.ManifestName || doc.Root.Kind != jsonpos.Object && doc.Root.Kind != jsonpos.Bool {
			continue
		}
		if !strings.HasPrefix(name, "schemas/") && !isSchemaRef(p, name) {
			continue
		}
		u := schemaURL(doc, name)
		if _, dup := names[u]; dup {
			continue
		}
		names[u] = name
		docs = append(docs, schema.Document{URL: u, Source: doc.Root})
	}
	failed := p.Schemas.CompilePack(docs)
	for _, d := range docs {
		name := names[d.URL]
		doc, _, _ := p.JSON(name)
		for _, ce := range failed[d.URL] {
			p.ReportAt(name, doc, ce.Pointer, false, ce.Message)
		}
	}
	jsonRefDocs(p, pack.RefSchema, func(r pack.Ref, doc *jsonpos.Doc) {
		if doc.Root.Kind != jsonpos.Object && doc.Root.Kind != jsonpos.Bool {
			p.ReportAt(r.Target, doc, "", false, fmt.Sprintf("named by %s but not a JSON Schema: a schema is an object (or true/false)", r.Field))
		}
	})
}

func isSchemaRef(p *Pass, name string) bool {
	for _, r := range fileRefs(p) {
		if r.Target == name && r.Kind == pack.RefSchema {
			return true
		}
	}
	return false
}

// packSchemas yields each bundled schemas/*.json and schema ref target that
// parsed as an object.
func packSchemas(p *Pass, fn func(name string, doc *jsonpos.Doc)) {
	for _, name := range jsonFiles(p) {
		if name == pack.ManifestName || !strings.HasPrefix(name, "schemas/") && !isSchemaRef(p, name) {
			continue
		}
		if doc, _, err := p.JSON(name); err == nil && doc.Root.Kind == jsonpos.Object {
			fn(name, doc)
		}
	}
}

func checkSchemaDraft(p *Pass) {
	packSchemas(p, func(name string, doc *jsonpos.Doc) {
		if v := doc.Root.Get("$schema"); v != nil && strings.TrimSuffix(v.String(), "#") != draft2020 {
			p.ReportAt(name, doc, "/$schema", false, fmt.Sprintf("$schema is %s; OpenWOP hosts validate with JSON Schema 2020-12: write %q and port draft-specific keywords (definitions → $defs, items arrays → prefixItems)", display(v), draft2020))
		}
	})
}

func display(v *jsonpos.Value) string {
	if v.Kind == jsonpos.String {
		return fmt.Sprintf("%q", v.Str)
	}
	return "not a string"
}

func checkSchemaIDMissing(p *Pass) {
	packSchemas(p, func(name string, doc *jsonpos.Doc) {
		if doc.Root.Get("$id") != nil {
			return
		}
		if !nameValid(p) { // an $id built from the bad name would copy the mistake
			p.ReportAt(name, doc, "", false, fmt.Sprintf("schema has no $id; once the pack name is fixed, add \"$id\": \"%s/<pack name>/<version>/%s\" so hosts can cache and cross-reference it", p.Profile.SchemaBase, strings.TrimPrefix(name, "schemas/")))
			return
		}
		p.ReportAt(name, doc, "", false, fmt.Sprintf("schema has no $id; add \"$id\": %q so hosts can cache and cross-reference it", wantSchemaID(p, name)))
	})
}

func checkSchemaIDMismatch(p *Pass) {
	if !versionValid(p) || !nameValid(p) {
		return
	}
	packSchemas(p, func(name string, doc *jsonpos.Doc) {
		id := doc.Root.Get("$id")
		if id == nil {
			return
		}
		if want := wantSchemaID(p, name); id.String() != want {
			p.ReportAt(name, doc, "/$id", false, fmt.Sprintf("$id is %s; for this pack version it must be %q%s", display(id), want, schemaIDCause(p, id.String())))
		}
	})
}

// schemaIDCause guesses how a schema's $id went wrong, for the message: a
// bump that left it at the old version, or a schema copied from another
// pack (or a pack renamed), which a version hint would misdirect.
func schemaIDCause(p *Pass, id string) string {
	rest, ok := strings.CutPrefix(id, p.Profile.SchemaBase+"/")
	if !ok {
		return ""
	}
	if owner, _, _ := strings.Cut(rest, "/"); owner != p.Root().Get("name").String() {
		return fmt.Sprintf(" (it names the pack %q: copied from another pack, or the pack renamed?)", owner)
	}
	return " (left at an old version after a bump?)"
}

func checkSchemaRefDrift(p *Pass) {
	root := p.Root()
	prefix := p.Profile.SchemaBase + "/" + root.Get("name").String() + "/"
	version := root.Get("version").String()
	if !versionValid(p) || !nameValid(p) {
		return
	}
	packSchemas(p, func(name string, doc *jsonpos.Doc) {
		walkObjects(doc.Root, "", func(ptr string, m jsonpos.Member) {
			ref := m.Value.String()
			if m.Name != "$ref" || !strings.HasPrefix(ref, prefix) {
				return
			}
			if v, _, _ := strings.Cut(strings.TrimPrefix(ref, prefix), "/"); v != version {
				p.ReportAt(name, doc, ptr+"/$ref", false, fmt.Sprintf("$ref %q points into this pack at version %s, but the pack is %s; use a relative $ref or update the version", ref, v, version))
			}
		})
	})
}

// keywords are the 2020-12 vocabulary plus annotations hosts use; a member
// one or two edits away from one of these is almost certainly a typo that
// the schema silently ignores.
var keywords = []string{
	"$schema", "$id", "$ref", "$defs", "$anchor", "$dynamicRef", "$dynamicAnchor", "$comment", "$vocabulary",
	"type", "enum", "const", "properties", "patternProperties", "additionalProperties", "required",
	"propertyNames", "minProperties", "maxProperties", "dependentRequired", "dependentSchemas",
	"items", "prefixItems", "contains", "minContains", "maxContains", "minItems", "maxItems", "uniqueItems",
	"unevaluatedItems", "unevaluatedProperties", "allOf", "anyOf", "oneOf", "not", "if", "then", "else",
	"minLength", "maxLength", "pattern", "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
	"multipleOf", "title", "description", "default", "examples", "deprecated", "readOnly", "writeOnly",
	"contentEncoding", "contentMediaType", "contentSchema", "definitions",
}

// nameMaps hold schemas under arbitrary member names; valueOnly hold data.
var (
	nameMaps  = []string{"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"}
	valueOnly = []string{"enum", "const", "examples", "default", "required", "dependentRequired", "$vocabulary"}
)

func checkSchemaUnknownKeyword(p *Pass) {
	packSchemas(p, func(name string, doc *jsonpos.Doc) {
		walkSchema(doc.Root, "", func(ptr string, m jsonpos.Member) {
			key := m.Name
			if slices.Contains(keywords, key) || strings.HasPrefix(key, "x-") || len(key) < 5 {
				return
			}
			if kw, sure := suggest.Guess(key, keywords, 2); kw != "" {
				p.Suggest(name, doc, ptr+"/"+jsonpos.EscapeToken(key), true, fmt.Sprintf("%q is not a JSON Schema keyword and is ignored; did you mean %q?", key, kw), kw, sure)
			}
		})
	})
}

// formats are the format values JSON Schema 2020-12 defines; validators
// treat any other as an annotation and check nothing.
var formats = []string{
	"date-time", "date", "time", "duration", "email", "idn-email", "hostname", "idn-hostname",
	"ipv4", "ipv6", "uri", "uri-reference", "iri", "iri-reference", "uuid", "uri-template",
	"json-pointer", "relative-json-pointer", "regex",
}

func checkSchemaFormatUnknown(p *Pass) {
	packSchemas(p, func(name string, doc *jsonpos.Doc) {
		walkSchema(doc.Root, "", func(ptr string, m jsonpos.Member) {
			v := m.Value
			if m.Name != "format" || v.Kind != jsonpos.String || slices.Contains(formats, v.Str) {
				return
			}
			fix := "use one of " + strings.Join(formats, ", ") + ", or delete it"
			near, sure := suggest.Guess(v.Str, formats, 2)
			if near != "" {
				fix = fmt.Sprintf("did you mean %q?", near)
			}
			p.Suggest(name, doc, ptr+"/format", false, fmt.Sprintf("format %q is not a JSON Schema 2020-12 format, so validators check nothing; %s", v.Str, fix), near, sure)
		})
	})
}

// walkSchema calls fn for every member in keyword position, with the
// pointer to the object holding it.
func walkSchema(v *jsonpos.Value, ptr string, fn func(ptr string, m jsonpos.Member)) {
	switch v.Kind {
	case jsonpos.Array:
		for i, it := range v.Items {
			walkSchema(it, fmt.Sprintf("%s/%d", ptr, i), fn)
		}
	case jsonpos.Object:
		for _, m := range v.Members {
			fn(ptr, m)
			child := ptr + "/" + jsonpos.EscapeToken(m.Name)
			switch {
			case slices.Contains(valueOnly, m.Name):
			case slices.Contains(nameMaps, m.Name) && m.Value.Kind == jsonpos.Object:
				for _, sub := range m.Value.Members {
					walkSchema(sub.Value, child+"/"+jsonpos.EscapeToken(sub.Name), fn)
				}
			default:
				walkSchema(m.Value, child, fn)
			}
		}
	}
}
