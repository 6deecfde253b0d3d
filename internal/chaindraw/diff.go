package chaindraw

import (
	"maps"
	"reflect"

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
	// Previous is the chain as the previous release has it (nil when the
	// chain is new): removed nodes and edges are drawn from it.
	Previous *chain.DAG `json:"-"`
}

// Any reports whether anything changed.
func (c *Changes) Any() bool {
	return c != nil && (len(c.Nodes) > 0 || len(c.Edges) > 0 || len(c.Inputs) > 0)
}

// EdgeKey names an edge by its ends ("a.port -> b"): edges have no id, and
// their index moves when one before them is removed.
func EdgeKey(e chain.Edge) string {
	return chain.End(e.From, e.FromPort) + " -> " + chain.End(e.To, e.ToPort)
}

// Diff compares a chain with its previous release's (prev nil: the chain
// is new, every element added). A node changed when its typeId, pin, name
// or any member but its canvas position did, or where one of its inputs
// now comes from; an input changed when its source did.
func Diff(prev, cur *chain.DAG) *Changes {
	c := &Changes{Nodes: map[string]Mark{}, Edges: map[string]Mark{}, Inputs: map[string]map[string]Mark{}, Previous: prev}
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
		}
	}
	for _, n := range prev.Nodes {
		if cur.Node(n.ID) == nil {
			c.Nodes[n.ID] = Removed
		}
	}
	was := edgeKeys(prev.Edges)
	now := edgeKeys(cur.Edges)
	for k := range now {
		if !was[k] {
			c.Edges[k] = Added
		}
	}
	for k := range was {
		if !now[k] {
			c.Edges[k] = Removed
		}
	}
	return c
}

func edgeKeys(edges []chain.Edge) map[string]bool {
	m := map[string]bool{}
	for _, e := range edges {
		m[EdgeKey(e)] = true
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
		o, ok := was[b.Input]
		if !ok && idle(b) {
			continue
		}
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
