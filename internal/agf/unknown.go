package agf

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/wop-cli/wop/internal/schema"
	"github.com/wop-cli/wop/internal/suggest"
)

// renamed are keys AgentFormat renamed; the old spelling validates (the
// schema is open) but runtimes ignore it, silently dropping a restriction.
var renamed = map[string]string{"allow_tools": "allowed_tools", "allow_skills": "allowed_skills"}

// freeForm are members whose contents are not AgentFormat's to define:
// JSON Schemas, label maps, vendor policy configs.
func freeForm(ptr string) bool {
	switch {
	case ptr == "/interface/input" || ptr == "/interface/output",
		strings.HasSuffix(ptr, "/labels"), strings.HasSuffix(ptr, "/annotations"):
		return true
	}
	return false
}

// schemaWalker resolves the AgentFormat schema's $refs and policy branches.
type schemaWalker struct {
	root any
	doc  *Doc
}

func (w *schemaWalker) resolve(s map[string]any) map[string]any {
	for depth := 0; depth < 16; depth++ {
		ref, ok := s["$ref"].(string)
		if !ok {
			return s
		}
		next := w.root
		for _, tok := range strings.Split(strings.TrimPrefix(ref, "#/"), "/") {
			next = obj(next)[tok]
		}
		s = obj(next)
	}
	return s
}

// properties collects the members a schema allows for an instance, through
// allOf (if/then on the instance), oneOf and anyOf. open reports whether the
// schema allows any member (additionalProperties set, or no properties known).
func (w *schemaWalker) properties(s map[string]any, inst map[string]any) (props map[string]map[string]any, open bool) {
	props = map[string]map[string]any{}
	var collect func(s map[string]any)
	collect = func(s map[string]any) {
		s = w.resolve(s)
		if _, ok := s["additionalProperties"]; ok {
			open = true
		}
		for k, v := range obj(s["properties"]) {
			if sub := obj(v); sub != nil {
				if old, ok := props[k]; ok {
					// a then-branch refines a property: prefer the branch with a $ref
					if _, ref := sub["$ref"]; !ref {
						sub = old
					}
				}
				props[k] = sub
			}
		}
		for _, b := range arr(s["allOf"]) {
			branch := obj(b)
			if cond := obj(branch["if"]); cond != nil {
				if w.matches(cond, inst) {
					collect(obj(branch["then"]))
				}
				continue
			}
			collect(branch)
		}
		for _, key := range []string{"oneOf", "anyOf"} {
			for _, b := range arr(s[key]) {
				collect(obj(b))
			}
		}
	}
	collect(s)
	return props, open || len(props) == 0
}

// matches evaluates the simple if-conditions the schema uses: property
// consts.
func (w *schemaWalker) matches(cond map[string]any, inst map[string]any) bool {
	for k, v := range obj(cond["properties"]) {
		if c, ok := obj(v)["const"]; ok && inst[k] != c {
			return false
		}
	}
	return true
}

func (w *schemaWalker) walk(p *Pass, s map[string]any, v any, ptr string, report func(ptr, key string, props []string)) {
	if freeForm(ptr) {
		return
	}
	s = w.resolve(s)
	switch x := v.(type) {
	case map[string]any:
		props, open := w.properties(s, x)
		if ptr == "/execution_policy/config" && !strings.HasPrefix(str(p.Doc.Get("/execution_policy/id")), "agf.") {
			return // a vendor policy's config is the vendor's
		}
		for _, k := range sortedKeys(x) {
			sub, known := props[k]
			switch {
			case known:
				w.walk(p, sub, x[k], ptr+"/"+escape(k), report)
			case !open:
				report(ptr+"/"+escape(k), k, slices.Sorted(maps.Keys(props)))
			}
		}
	case []any:
		items := obj(s["items"])
		if items == nil {
			// a oneOf of a schema and an array of it (exit_condition, when)
			for _, b := range arr(s["oneOf"]) {
				if it := obj(obj(b)["items"]); it != nil {
					items = it
				}
			}
		}
		for i, it := range x {
			w.walk(p, items, it, fmt.Sprintf("%s/%d", ptr, i), report)
		}
	}
}

func (p *Pass) unknownKeys(fn func(ptr, key string, props []string)) {
	w := &schemaWalker{root: p.schemas.Document(schema.AgentFormatID), doc: p.Doc}
	w.walk(p, obj(w.root), p.Doc.Value, "", fn)
}

// CheckUnknownFields reports fields the AgentFormat 1.0 schema does not
// define (x- extensions aside), suggesting the nearest known one.
func CheckUnknownFields(p *Pass) {
	p.unknownKeys(func(ptr, key string, props []string) {
		if _, ok := renamed[key]; ok || strings.HasPrefix(key, "x-") {
			return // agf-renamed-key; x- keys are extensions
		}
		hint := ""
		near, sure := suggest.Guess(key, props, 2)
		if near != "" {
			hint = fmt.Sprintf("; did you mean %q?", near)
		}
		p.Suggest(ptr, true, near, sure, "unknown field %q: AgentFormat 1.0 does not define it, so runtimes ignore it%s", key, hint)
	})
}

// CheckRenamedKeys reports allow_tools/allow_skills, which runtimes ignore.
func CheckRenamedKeys(p *Pass) {
	p.unknownKeys(func(ptr, key string, _ []string) {
		if now, ok := renamed[key]; ok {
			p.Report(ptr, true, "%q was renamed %q: the old key still validates but runtimes ignore it, so the restriction it meant is gone", key, now)
		}
	})
}
