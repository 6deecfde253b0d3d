package breaking

import (
	"slices"
	"strconv"

	"github.com/wop-cli/wop/internal/jsonpos"
)

// schemaRole says which way a schema must not move.
type schemaRole int

const (
	inputSchema  schemaRole = iota // callers send it: must not accept less
	outputSchema                   // callers receive it: must not allow more
)

func (c *comparison) compareNode(id string, o, n entity) {
	contract, before := false, len(c.changes)
	for _, s := range []struct {
		field, rule string
		role        schemaRole
	}{
		{"configSchemaRef", "node-config-accepts-less", inputSchema},
		{"inputSchemaRef", "node-input-accepts-less", inputSchema},
		{"outputSchemaRef", "node-output-guarantees-less", outputSchema},
	} {
		if c.compareSchemaRef(o, n, s.field, s.rule, s.role, "node "+id) {
			contract = true
		}
	}
	narrowed := len(c.changes) > before
	c.compareString(o, n, "role", "role-changed", "node "+id)
	c.compareString(o, n, "category", "category-changed", "node "+id)
	c.newIDs(o, n, "requiresSecrets", "id", "secret-added", "node "+id+" now needs secret")
	c.newIDs(o, n, "requiredCredentials", "key", "secret-added", "node "+id+" now needs credential")
	c.newStrings(o, n, "requiredModelCapabilities", "model-capability-added", "node "+id+" now needs model capability")
	if contract && n.v.Get("version") != nil && same(o.v.Get("version"), n.v.Get("version")) {
		c.add("contract-version-unchanged", n.ptr+"/version", o.ptr+"/version", "node %s's contract changed but its version is still %s: raise it so hosts pinning the node see the change", id, n.v.Get("version").String())
		c.stale(n, narrowed)
	}
}

func (c *comparison) compareAgent(id string, o, n entity) {
	c.compareSchemaRef(o, n, "handoff/taskSchemaRef", "agent-task-accepts-less", inputSchema, "agent "+id)
	c.compareSchemaRef(o, n, "handoff/returnSchemaRef", "agent-return-guarantees-less", outputSchema, "agent "+id)
	c.compareString(o, n, "role", "role-changed", "agent "+id)
	oa, na := stringItems(o.v.Get("toolAllowlist")), stringItems(n.v.Get("toolAllowlist"))
	for _, t := range oa {
		if !slices.Contains(na, t) {
			c.add("allowlist-narrowed", n.ptr+"/toolAllowlist", o.ptr+"/toolAllowlist", "agent %s may no longer call %s", id, t)
		}
	}
	if !same(o.v.Get("systemPrompt"), n.v.Get("systemPrompt")) || !c.sameFile(o.v.Get("systemPromptRef"), n.v.Get("systemPromptRef")) {
		c.add("prompt-changed", n.ptr, o.ptr, "agent %s's system prompt changed", id)
	}
}

func (c *comparison) compareChain(id string, o, n entity) {
	contract, before := false, len(c.changes)
	oldAt, newAt := place{ptr: o.ptr + "/parameters"}, place{file: manifestFile, ptr: n.ptr + "/parameters"}
	if c.compareSchemas(iface(o.v.Get("parameters")), iface(n.v.Get("parameters")), oldAt, newAt, "chain-parameters-accept-less", inputSchema, "chain "+id+"'s parameters") {
		contract = true
	}
	oo, no := o.v.Get("outputs"), n.v.Get("outputs")
	if oo != nil && oo.Kind == jsonpos.Object {
		for _, m := range oo.Members {
			if no.Get(m.Name) == nil {
				c.add("chain-output-removed", n.ptr+"/outputs", o.ptr+"/outputs/"+jsonpos.EscapeToken(m.Name), "chain %s no longer declares output %q", id, m.Name)
				contract = true
			}
		}
	}
	narrowed := len(c.changes) > before
	if !same(o.v.Get("dag"), n.v.Get("dag")) {
		c.add("dag-changed", n.ptr+"/dag", o.ptr+"/dag", "chain %s's DAG changed", id)
	}
	if contract && n.v.Get("version") != nil && same(o.v.Get("version"), n.v.Get("version")) {
		c.add("contract-version-unchanged", n.ptr+"/version", o.ptr+"/version", "chain %s's contract changed but its version is still %s: raise it", id, n.v.Get("version").String())
		c.stale(n, narrowed)
	}
}

func (c *comparison) compareTemplate(id string, o, n entity) {
	for _, f := range []string{"text", "fields"} {
		if !same(o.v.Get(f), n.v.Get(f)) {
			c.add("prompt-changed", n.ptr+"/"+f, o.ptr+"/"+f, "template %s's %s changed", id, f)
		}
	}
}

// stale records an entity whose version must rise: a major step when its
// contract narrowed, else a minor one (it only grew).
func (c *comparison) stale(n entity, narrowed bool) {
	b := Minor
	if narrowed {
		b = Major
	}
	c.staleVersions = append(c.staleVersions, StaleVersion{Pointer: n.ptr + "/version", Version: n.v.Get("version").String(), Needed: b})
}

// compareString reports a changed string member (role, category).
func (c *comparison) compareString(o, n entity, field, rule, what string) {
	ov, nv := o.v.Get(field).String(), n.v.Get(field).String()
	if ov != nv {
		c.add(rule, n.ptr+"/"+field, o.ptr+"/"+field, "%s: %s changed from %s to %s", what, field, quoteOrNone(ov), quoteOrNone(nv))
	}
}

// newIDs reports objects of an array whose key the old release lacked.
func (c *comparison) newIDs(o, n entity, field, key, rule, what string) {
	old := map[string]bool{}
	if arr := o.v.Get(field); arr != nil {
		for _, it := range arr.Items {
			old[it.Get(key).String()] = true
		}
	}
	if arr := n.v.Get(field); arr != nil {
		for i, it := range arr.Items {
			if k := it.Get(key).String(); !old[k] {
				c.add(rule, n.ptr+"/"+field+"/"+itoa(i), "", "%s %q: hosts without it cannot run the node", what, k)
			}
		}
	}
}

// newStrings reports strings of an array the old release lacked.
func (c *comparison) newStrings(o, n entity, field, rule, what string) {
	old := stringItems(o.v.Get(field))
	for i, s := range stringItems(n.v.Get(field)) {
		if !slices.Contains(old, s) {
			c.add(rule, n.ptr+"/"+field+"/"+itoa(i), "", "%s %q", what, s)
		}
	}
}

func stringItems(v *jsonpos.Value) []string {
	if v == nil || v.Kind != jsonpos.Array {
		return nil
	}
	var out []string
	for _, it := range v.Items {
		out = append(out, it.String())
	}
	return out
}

func quoteOrNone(s string) string {
	if s == "" {
		return "none"
	}
	return strconv.Quote(s)
}
