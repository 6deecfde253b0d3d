package chaindraw

import (
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/wop-cli/wop/internal/chain"
)

// Mark is how an element changed against the previous release.
type Mark string

// The marks; "" is unchanged.
const (
	Added   Mark = "added"
	Removed Mark = "removed"
	Changed Mark = "changed"
)

// Changes are a chain's differences from its previous release, by node
// id, edge key (EdgeKey) and node id plus input name.
type Changes struct {
	Nodes  map[string]Mark            `json:"nodes,omitempty"`
	Edges  map[string]Mark            `json:"edges,omitempty"`
	Inputs map[string]map[string]Mark `json:"inputs,omitempty"`
	// NodeDetails and EdgeDetails say what changed in a changed node (by
	// id) or edge (by EdgeKey), a few words each: "typeId a → b",
	// "config: model, prompt", "condition: none → not approved".
	NodeDetails map[string][]string `json:"nodeDetails,omitempty"`
	EdgeDetails map[string][]string `json:"edgeDetails,omitempty"`
	// Params marks the chain parameters added, removed or changed (type,
	// required, default); NewRequired names the ones a run must now give
	// and did not have to before.
	Params      map[string]Mark `json:"params,omitempty"`
	NewRequired []string        `json:"newRequired,omitempty"`
	// Previous is the chain as the previous release has it (nil when the
	// chain is new): removed nodes and edges are drawn from it.
	Previous *chain.DAG `json:"-"`
}

// Any reports whether anything changed.
func (c *Changes) Any() bool {
	return c != nil && (len(c.Nodes) > 0 || len(c.Edges) > 0 || len(c.Inputs) > 0 || len(c.Params) > 0)
}

// EdgeKey names an edge by its ends ("a.port -> b"): edges have no id, and
// their index moves when one before them is removed.
func EdgeKey(e chain.Edge) string {
	return chain.End(e.From, e.FromPort) + " -> " + chain.End(e.To, e.ToPort)
}

// Diff compares a chain with its previous release's (prev nil: the chain
// is new, every element added). A node changed when its typeId, pin, name
// or any member but its canvas position did, or where one of its inputs
// now comes from; an input changed when its source did; an edge changed
// when its condition or trigger rule did.
func Diff(prev, cur *chain.DAG) *Changes {
	c := &Changes{Nodes: map[string]Mark{}, Edges: map[string]Mark{}, Inputs: map[string]map[string]Mark{},
		NodeDetails: map[string][]string{}, EdgeDetails: map[string][]string{}, Params: map[string]Mark{}, Previous: prev}
	if prev == nil {
		prev = &chain.DAG{}
	}
	for _, n := range cur.Nodes {
		old := prev.Node(n.ID)
		if old == nil {
			c.Nodes[n.ID] = Added
			continue
		}
		inputs := diffInputs(old.Inputs, n.Inputs)
		if len(inputs) > 0 {
			c.Inputs[n.ID] = inputs
		}
		if len(inputs) > 0 || nodeChanged(old, &n) {
			c.Nodes[n.ID] = Changed
			c.NodeDetails[n.ID] = nodeDetails(old, &n, inputs)
		}
	}
	for _, n := range prev.Nodes {
		if cur.Node(n.ID) == nil {
			c.Nodes[n.ID] = Removed
		}
	}
	was := edgeKeys(prev.Edges)
	now := edgeKeys(cur.Edges)
	for k, e := range now {
		o, ok := was[k]
		switch {
		case !ok:
			c.Edges[k] = Added
		case o.TriggerRule != e.TriggerRule || !reflect.DeepEqual(o.Condition, e.Condition): // When is said of Condition
			c.Edges[k] = Changed
			c.EdgeDetails[k] = edgeDetails(o.Gating, e.Gating)
		}
	}
	for k := range was {
		if _, ok := now[k]; !ok {
			c.Edges[k] = Removed
		}
	}
	c.diffParams(prev.Params, cur.Params)
	return c
}

// diffParams marks the parameters added, removed or changed, and those a
// run must now give that it need not before.
func (c *Changes) diffParams(old, cur []chain.Param) {
	was := map[string]chain.Param{}
	for _, p := range old {
		was[p.Name] = p
	}
	for _, p := range cur {
		o, ok := was[p.Name]
		switch {
		case !ok:
			c.Params[p.Name] = Added
		case o.Type != p.Type || o.Required != p.Required || o.Default != p.Default:
			c.Params[p.Name] = Changed
		}
		if mustGive(p) && (!ok || !mustGive(o)) {
			c.NewRequired = append(c.NewRequired, p.Name)
		}
		delete(was, p.Name)
	}
	for name := range was {
		c.Params[name] = Removed
	}
}

// mustGive is a parameter a run must give: required, without a default.
func mustGive(p chain.Param) bool { return p.Required && !p.Default }

// nodeDetails says what changed in a node: its typeId, pin or name (old →
// new), the members of its config and inputs that differ, any other
// member, and the inputs whose binding changed.
func nodeDetails(old, cur *chain.Node, inputs map[string]Mark) []string {
	var out []string
	if old.TypeID != cur.TypeID {
		out = append(out, "typeId "+old.TypeID+" → "+cur.TypeID)
	}
	if old.Pin != cur.Pin {
		out = append(out, "pin "+orNone(old.Pin)+" → "+orNone(cur.Pin))
	}
	if old.Name != cur.Name {
		out = append(out, "name "+orNone(old.Name)+" → "+orNone(cur.Name))
	}
	was, _ := withoutPosition(old).(map[string]any)
	now, _ := withoutPosition(cur).(map[string]any)
	var others []string
	for _, k := range slices.Sorted(maps.Keys(union(was, now))) {
		switch k {
		case "id", "typeId", "name":
			continue
		case "config", "inputs":
			if keys := changedKeys(was[k], now[k]); len(keys) > 0 {
				out = append(out, k+": "+strings.Join(keys, ", "))
			}
		default:
			if !reflect.DeepEqual(was[k], now[k]) {
				others = append(others, k)
			}
		}
	}
	if len(others) > 0 {
		out = append(out, "members: "+strings.Join(others, ", "))
	}
	if len(inputs) > 0 {
		out = append(out, "bindings: "+strings.Join(slices.Sorted(maps.Keys(inputs)), ", "))
	}
	return out
}

// changedKeys are the members of two objects that differ, sorted ("(the
// whole value)" when either is neither an object nor absent).
func changedKeys(a, b any) []string {
	ma, okA := a.(map[string]any)
	mb, okB := b.(map[string]any)
	if a == nil { // an absent member is an empty one
		ma, okA = map[string]any{}, true
	}
	if b == nil {
		mb, okB = map[string]any{}, true
	}
	if !okA || !okB {
		if reflect.DeepEqual(a, b) {
			return nil
		}
		return []string{"(the whole value)"}
	}
	var out []string
	for _, k := range slices.Sorted(maps.Keys(union(ma, mb))) {
		if !reflect.DeepEqual(ma[k], mb[k]) {
			out = append(out, k)
		}
	}
	return out
}

func union(a, b map[string]any) map[string]any {
	out := maps.Clone(a)
	if out == nil {
		out = map[string]any{}
	}
	maps.Copy(out, b)
	return out
}

// edgeDetails says how an edge's condition or trigger rule changed.
func edgeDetails(old, cur chain.Gating) []string {
	var out []string
	if !reflect.DeepEqual(old.Condition, cur.Condition) {
		out = append(out, "condition "+orNone(old.When)+" → "+orNone(cur.When))
	}
	if old.TriggerRule != cur.TriggerRule {
		out = append(out, "triggerRule "+orNone(old.TriggerRule)+" → "+orNone(cur.TriggerRule))
	}
	return out
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// edgeKeys are the edges by EdgeKey (the first of several with one key).
func edgeKeys(edges []chain.Edge) map[string]chain.Edge {
	m := map[string]chain.Edge{}
	for _, e := range edges {
		if _, dup := m[EdgeKey(e)]; !dup {
			m[EdgeKey(e)] = e
		}
	}
	return m
}

func nodeChanged(old, cur *chain.Node) bool {
	if old.TypeID != cur.TypeID || old.Pin != cur.Pin || old.Name != cur.Name {
		return true
	}
	return !reflect.DeepEqual(withoutPosition(old), withoutPosition(cur))
}

// withoutPosition is a node's JSON with its canvas position left out:
// moving a node on the canvas changes no run.
func withoutPosition(n *chain.Node) any {
	if n.Value == nil {
		return nil
	}
	m, ok := n.Value.Interface().(map[string]any)
	if !ok {
		return n.Value.Interface()
	}
	m = maps.Clone(m)
	delete(m, "position")
	return m
}

// diffInputs marks each input whose binding appeared, went or now comes
// from elsewhere. An optional input nothing binds counts as absent: a
// schema that declares one more optional input binds nothing new.
func diffInputs(old, cur []chain.Binding) map[string]Mark {
	m := map[string]Mark{}
	was := map[string]chain.Binding{}
	for _, b := range old {
		if !idle(b) {
			was[b.Input] = b
		}
	}
	for _, b := range cur {
		if idle(b) {
			continue // absent now: removed below if it was bound
		}
		o, ok := was[b.Input]
		switch {
		case !ok:
			m[b.Input] = Added
		case o.Source != b.Source || o.From != b.From || o.Port != b.Port || o.Param != b.Param || o.Unsure != b.Unsure:
			m[b.Input] = Changed
		}
		delete(was, b.Input)
	}
	for name := range was {
		m[name] = Removed
	}
	return m
}

// idle is an optional input nothing binds.
func idle(b chain.Binding) bool { return !b.Required && b.Source == chain.SourceUnbound }
