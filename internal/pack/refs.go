package pack

import (
	"strconv"
	"strings"

	"github.com/wop-cli/wop/internal/jsonpos"
)

// RefKind says what a file ref points at, which decides how it is checked.
type RefKind int

// The kinds of file a manifest ref can name.
const (
	RefPrompt   RefKind = iota // a prompt body (markdown or text)
	RefSchema                  // a JSON Schema 2020-12 document
	RefEval                    // an agent eval suite (JSON)
	RefJSON                    // another JSON document (envelope contracts)
	RefRuntime                 // the runtime entry artifact
	RefUIPlugin                // a frontend plugin's entry bundle (uiPlugins[].entry)
)

// IsJSON reports whether a ref of kind k names a JSON document.
func (k RefKind) IsJSON() bool { return k == RefSchema || k == RefEval || k == RefJSON }

// Ref is one file reference in a manifest.
type Ref struct {
	Field   string // human name of the field, e.g. "agents[0].systemPromptRef"
	Pointer string // JSON pointer to the string value
	Target  string // the ref as written
	Kind    RefKind
}

// Path is the archive entry the ref names. Refs are compared byte for byte
// with entry names, except runtime.entry: every published JavaScript pack
// writes "./index.mjs", the module-import spelling, and hosts resolve it.
func (r Ref) Path() string {
	if r.Kind == RefRuntime {
		return strings.TrimPrefix(r.Target, "./")
	}
	return r.Target
}

// Refs lists every file ref of a manifest (FORMAT.md §1), in manifest order.
// runtime.entry is included unless runtime.language is "remote"; so is each
// frontend plugin's entry bundle, which the host loads from the archive.
func Refs(root *jsonpos.Value) []Ref {
	var refs []Ref
	add := func(v *jsonpos.Value, field, ptr string, kind RefKind) {
		if v != nil && v.Kind == jsonpos.String {
			refs = append(refs, Ref{Field: field, Pointer: ptr, Target: v.Str, Kind: kind})
		}
	}
	if rt := root.Get("runtime"); rt != nil && rt.Get("language").String() != "remote" {
		add(rt.Get("entry"), "runtime.entry", "/runtime/entry", RefRuntime)
	}
	eachItem(root.Get("uiPlugins"), func(i int, u *jsonpos.Value) {
		add(u.Get("entry"), "uiPlugins["+strconv.Itoa(i)+"].entry", "/uiPlugins/"+strconv.Itoa(i)+"/entry", RefUIPlugin)
	})
	eachItem(root.Get("nodes"), func(i int, n *jsonpos.Value) {
		base, field := "/nodes/"+strconv.Itoa(i), "nodes["+strconv.Itoa(i)+"]."
		for _, f := range []string{"configSchemaRef", "inputSchemaRef", "outputSchemaRef"} {
			add(n.Get(f), field+f, base+"/"+f, RefSchema)
		}
		add(n.Get("envelopeContractRef"), field+"envelopeContractRef", base+"/envelopeContractRef", RefJSON)
	})
	eachItem(root.Get("agents"), func(i int, a *jsonpos.Value) {
		base, field := "/agents/"+strconv.Itoa(i), "agents["+strconv.Itoa(i)+"]."
		add(a.Get("systemPromptRef"), field+"systemPromptRef", base+"/systemPromptRef", RefPrompt)
		add(a.Get("evalSuiteRef"), field+"evalSuiteRef", base+"/evalSuiteRef", RefEval)
		if h := a.Get("handoff"); h != nil {
			add(h.Get("taskSchemaRef"), field+"handoff.taskSchemaRef", base+"/handoff/taskSchemaRef", RefSchema)
			add(h.Get("returnSchemaRef"), field+"handoff.returnSchemaRef", base+"/handoff/returnSchemaRef", RefSchema)
		}
	})
	return refs
}

func eachItem(arr *jsonpos.Value, fn func(int, *jsonpos.Value)) {
	if arr == nil || arr.Kind != jsonpos.Array {
		return
	}
	for i, it := range arr.Items {
		if it.Kind == jsonpos.Object {
			fn(i, it)
		}
	}
}
