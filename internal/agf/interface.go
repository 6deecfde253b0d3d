package agf

import (
	"strings"
)

// CheckInterface compiles interface.input and interface.output as JSON
// Schema: they become the handoff schemas of an import and runtimes
// validate calls with them. A schema with a $ref outside itself cannot be
// compiled offline and is left alone here (an import refuses it).
func CheckInterface(p *Pass) {
	for _, side := range []string{"input", "output"} {
		ptr := "/interface/" + side
		doc, ok := p.Doc.Get(ptr).(map[string]any)
		if !ok || externalRef(doc) != "" {
			continue // not an object: agf-schema says so
		}
		for _, ce := range p.schemas.CompileStandalone(doc) {
			msg := strings.ReplaceAll(strings.TrimPrefix(ce.Message, "not a valid 2020-12 schema: "), "this schema#", "#")
			p.Report(ptr+ce.Pointer, false, "interface.%s is not a valid JSON Schema: %s", side, msg)
		}
	}
}

// externalRef returns the first $ref in a schema that points outside it
// (anything but a "#..." fragment), or "".
func externalRef(v any) string {
	switch x := v.(type) {
	case map[string]any:
		if ref, ok := x["$ref"].(string); ok && !strings.HasPrefix(ref, "#") {
			return ref
		}
		for _, k := range sortedKeys(x) {
			if ref := externalRef(x[k]); ref != "" {
				return ref
			}
		}
	case []any:
		for _, it := range x {
			if ref := externalRef(it); ref != "" {
				return ref
			}
		}
	}
	return ""
}
