package breaking

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/wop-cli/wop/internal/jsonedit"
)

// Schema comparison works on the parsed JSON Schema documents (decoded with
// UseNumber), keyword by keyword, and reports where the new schema accepts
// less than the old one. It compares type, enum/const, required,
// properties (recursively), additionalProperties: false, items, pattern,
// format and the numeric, length, item-count and property-count bounds, and
// follows local "#/..." $refs. It does not compare allOf/anyOf/oneOf/not,
// if/then/else, prefixItems, patternProperties, dependent* or remote $refs:
// a change there is not reported. $id, $schema, $comment, title,
// description, examples and default never count.

// narrowing is one place where a schema accepts less. What describes the
// constraint the narrower schema has and the wider one lacks ("requires
// property \"x\" at /a"), so it reads for inputs ("now requires") and
// outputs ("no longer requires") alike.
type narrowing struct {
	WidePointer, NarrowPointer string // into the wider and narrower documents
	What                       string
	Wide                       string // the wider schema's setting, when What names a value ("60", "none")
}

// maxSchemaDepth bounds recursion through nested and $ref'd subschemas.
const maxSchemaDepth = 64

type schemaDiff struct {
	oldRoot, newRoot any
	out              []narrowing
	// seen holds the pairs of places compared: each pair once, so schemas
	// whose $refs loop back through several properties stay linear.
	seen map[[2]string]bool
}

// narrowings lists where narrow rejects instances wide accepted.
func narrowings(wide, narrow any) []narrowing {
	d := &schemaDiff{oldRoot: wide, newRoot: narrow, seen: map[[2]string]bool{}}
	d.compare(wide, narrow, "", "", "", 0)
	return d.out
}

func (d *schemaDiff) report(op, np, format string, args ...any) {
	d.out = append(d.out, narrowing{WidePointer: op, NarrowPointer: np, What: fmt.Sprintf(format, args...)})
}

// compare checks one subschema pair; at is the instance location, for
// messages ("" is the value itself).
func (d *schemaDiff) compare(o, n any, op, np, at string, depth int) {
	if depth > maxSchemaDepth {
		return
	}
	o, op = d.deref(d.oldRoot, o, op)
	n, np = d.deref(d.newRoot, n, np)
	if d.seen[[2]string{op, np}] {
		return
	}
	d.seen[[2]string{op, np}] = true
	if ob, ok := o.(bool); ok && !ob {
		return // the old schema accepted nothing
	}
	if nb, ok := n.(bool); ok {
		if !nb {
			d.report(op, np, "accepts nothing%s (schema false)", where(at))
		}
		return
	}
	om, _ := o.(map[string]any)
	nm, _ := n.(map[string]any)
	if nm == nil {
		return
	}
	if om == nil {
		om = map[string]any{}
	}
	d.compareTypes(om, nm, op, np, at)
	d.compareEnum(om, nm, op, np, at)
	d.compareBounds(om, nm, op, np, at)
	d.compareStrings(om, nm, op, np, at)
	d.compareObject(om, nm, op, np, at, depth)
	if ni, ok := nm["items"]; ok {
		oi, had := om["items"]
		if !had {
			oi = true
		}
		d.compare(oi, ni, op+"/items", np+"/items", at+"/*", depth+1)
	}
}

// deref follows local $refs ("#/..."); maxSchemaDepth bounds both chains
// of refs and recursion through cyclic ones.
func (d *schemaDiff) deref(root, s any, ptr string) (any, string) {
	for range maxSchemaDepth {
		m, ok := s.(map[string]any)
		if !ok {
			return s, ptr
		}
		ref, ok := m["$ref"].(string)
		if !ok || !strings.HasPrefix(ref, "#") {
			return s, ptr
		}
		target, err := resolve(root, strings.TrimPrefix(ref, "#"))
		if err != nil {
			return s, ptr
		}
		s, ptr = target, strings.TrimPrefix(ref, "#")
	}
	return s, ptr
}

func resolve(root any, ptr string) (any, error) {
	toks, err := jsonedit.Tokens(ptr)
	if err != nil {
		return nil, err
	}
	v := root
	for _, t := range toks {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s: not found", ptr)
		}
		if v, ok = m[t]; !ok {
			return nil, fmt.Errorf("%s: not found", ptr)
		}
	}
	return v, nil
}

// where names an instance location for messages: "" at the top level.
func where(at string) string {
	if at == "" {
		return ""
	}
	return " at " + at
}

func types(m map[string]any) []string {
	switch t := m["type"].(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, x := range t {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil // any type
}

func (d *schemaDiff) compareTypes(om, nm map[string]any, op, np, at string) {
	nt := types(nm)
	if nt == nil {
		return
	}
	ot := types(om)
	if ot == nil {
		d.report(op, np+"/type", "restricts the type%s to %s", where(at), strings.Join(nt, " or "))
		return
	}
	var lost []string
	for _, t := range ot {
		if !slices.Contains(nt, t) && !(t == "integer" && slices.Contains(nt, "number")) {
			lost = append(lost, t)
		}
	}
	if len(lost) > 0 {
		d.report(op+"/type", np+"/type", "excludes type %s%s", strings.Join(lost, " and "), where(at))
	}
}

// allowed is an enum or const as a list of values; nil means unrestricted.
func allowed(m map[string]any) ([]any, string) {
	if c, ok := m["const"]; ok {
		return []any{c}, "/const"
	}
	if e, ok := m["enum"].([]any); ok {
		return e, "/enum"
	}
	return nil, ""
}

func (d *schemaDiff) compareEnum(om, nm map[string]any, op, np, at string) {
	nv, nk := allowed(nm)
	if nv == nil {
		return
	}
	ov, okey := allowed(om)
	if ov == nil {
		d.report(op, np+nk, "limits the value%s to %s", where(at), values(nv))
		return
	}
	var lost []any
	for _, v := range ov {
		if !slices.ContainsFunc(nv, func(x any) bool { return reflect.DeepEqual(x, v) }) {
			lost = append(lost, v)
		}
	}
	if len(lost) > 0 {
		d.report(op+okey, np+nk, "excludes %s%s", values(lost), where(at))
	}
}

func values(vs []any) string {
	var parts []string
	for _, v := range vs {
		b, _ := json.Marshal(v)
		parts = append(parts, string(b))
	}
	return strings.Join(parts, ", ")
}

// lowerBounds raise, upperBounds fall when narrowed.
var (
	lowerBounds = []string{"minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"}
	upperBounds = []string{"maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"}
)

func (d *schemaDiff) compareBounds(om, nm map[string]any, op, np, at string) {
	check := func(kw string, narrower func(o, n float64) bool) {
		n, ok := number(nm[kw])
		if !ok {
			return
		}
		o, had := number(om[kw])
		if !had || narrower(o, n) {
			was := "none"
			if had {
				was = fmt.Sprint(o)
			}
			d.out = append(d.out, narrowing{WidePointer: op + "/" + kw, NarrowPointer: np + "/" + kw, What: fmt.Sprintf("sets %s %v%s", kw, n, where(at)), Wide: was})
		}
	}
	for _, kw := range lowerBounds {
		check(kw, func(o, n float64) bool { return n > o })
	}
	for _, kw := range upperBounds {
		check(kw, func(o, n float64) bool { return n < o })
	}
}

func number(v any) (float64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	f, err := n.Float64()
	return f, err == nil
}

// compareStrings reports a pattern or format added or changed: wop cannot
// prove one regular expression accepts everything another does.
func (d *schemaDiff) compareStrings(om, nm map[string]any, op, np, at string) {
	for _, kw := range []string{"pattern", "format"} {
		n, ok := nm[kw].(string)
		if !ok {
			continue
		}
		if o, had := om[kw].(string); !had {
			d.report(op, np+"/"+kw, "requires %s %q%s", kw, n, where(at))
		} else if o != n {
			d.out = append(d.out, narrowing{WidePointer: op + "/" + kw, NarrowPointer: np + "/" + kw, What: fmt.Sprintf("requires %s %q%s", kw, n, where(at)), Wide: fmt.Sprintf("%q", o)})
		}
	}
}

func (d *schemaDiff) compareObject(om, nm map[string]any, op, np, at string, depth int) {
	oreq, nreq := stringSet(om["required"]), stringSet(nm["required"])
	for _, r := range sortedKeys(nreq) {
		if !oreq[r] {
			d.report(op, np+"/required", "requires property %q%s", r, where(at))
		}
	}
	oprops, _ := om["properties"].(map[string]any)
	nprops, _ := nm["properties"].(map[string]any)
	closed := nm["additionalProperties"] == false
	if closed && om["additionalProperties"] != false {
		d.report(op, np+"/additionalProperties", "rejects properties it does not list%s", where(at))
	}
	for _, name := range sortedKeys(oprops) {
		ptrName := jsonedit.Pointer(name)
		ns, ok := nprops[name]
		if !ok {
			if closed {
				d.report(op+"/properties"+ptrName, np+"/properties", "rejects property %q%s (not listed in a closed object)", name, where(at))
			}
			continue
		}
		d.compare(oprops[name], ns, op+"/properties"+ptrName, np+"/properties"+ptrName, at+ptrName, depth+1)
	}
}

func stringSet(v any) map[string]bool {
	out := map[string]bool{}
	if a, ok := v.([]any); ok {
		for _, x := range a {
			if s, ok := x.(string); ok {
				out[s] = true
			}
		}
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
