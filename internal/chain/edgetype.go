package chain

import (
	"fmt"
	"slices"
	"strings"

	"github.com/wop-cli/wop/internal/catalog"
)

// This file judges what an edge carries against what the input at its end
// accepts, from the two node types' JSON Schemas (compared as
// schemaconflict.go says), and records on each edge whether it could.

// The values of Edge.TypeCheck.
const (
	// TypeChecked: both ends' schemas are known and what the edge carries
	// was compared with an input it binds.
	TypeChecked = "checked"
	// TypeUnrelated: both ends' schemas are known, but the edge has no port
	// and the upstream's output declares no member the input declares, so
	// there is nothing to compare.
	TypeUnrelated = "unrelated"
	// TypeUnknown: an end's schema is missing, open where it matters, or
	// names the member compared in a way wop cannot read.
	TypeUnknown = "unknown"
)

// carrying is what an edge hands over: its schema, the document its local
// $refs point into, and words naming it for messages.
type carrying struct {
	schema, root map[string]any
	desc         string
}

// carriedValue is what edge e hands over (schema nil when unknown).
func (a *analyzer) carriedValue(e Edge) carrying {
	up := a.d.Node(e.From)
	if up == nil || up.Type == nil {
		return carrying{}
	}
	s := a.outputSchema(up)
	if !s.ok {
		return carrying{}
	}
	root := a.schemaRoot(up.Type, up.Type.OutputSchema)
	where := fmt.Sprintf("%s@%s", up.Type.Pack, up.Type.PackVersion)
	port := e.FromPort
	if port == "" {
		if m, ok := s.props["output"].(map[string]any); ok {
			return carrying{m, root, fmt.Sprintf("member \"output\" of the output of %q (%s)", up.ID, where)}
		}
		return carrying{wholeMap(s), root, fmt.Sprintf("the output of %q (%s)", up.ID, where)}
	}
	first, rest, _ := strings.Cut(port, ".")
	m, _ := s.props[first].(map[string]any)
	if rest != "" {
		m = descend(m, root, rest)
	}
	if m == nil {
		return carrying{}
	}
	return carrying{m, root, fmt.Sprintf("member %q of the output of %q (%s)", port, up.ID, where)}
}

// wholeMap is a node's whole output map as one object schema: closed only
// when its schema is (an open one that declares members but no "output"
// is still open: it may carry members it does not declare).
func wholeMap(s schemaOf) map[string]any {
	whole := map[string]any{"type": "object", "properties": s.props}
	if len(s.required) > 0 {
		req := make([]any, len(s.required))
		for i, r := range s.required {
			req[i] = r
		}
		whole["required"] = req
	}
	if s.closed {
		whole["additionalProperties"] = false
	}
	return whole
}

// schemaRoot is the decoded schema document at ref of node type t (nil
// when unknown): the root its local $refs point into.
func (a *analyzer) schemaRoot(t *catalog.NodeType, ref string) map[string]any {
	if t == nil || a.o.Catalog == nil {
		return nil
	}
	url, ok := a.o.Catalog.SchemaURL(t, ref)
	if !ok {
		return nil
	}
	return a.o.Catalog.Document(url)
}

// descend follows a dotted path through nested properties and local $refs
// (nil when a step is not declared plainly).
func descend(m, root map[string]any, path string) map[string]any {
	for _, step := range strings.Split(path, ".") {
		m = deref(m, root)
		if m == nil || opaque(m) {
			return nil
		}
		props, _ := m["properties"].(map[string]any)
		m, _ = props[step].(map[string]any)
	}
	return m
}

// carried summarises what an edge hands over, for readers of the graph.
func (a *analyzer) carried(e Edge) *Carried {
	v := a.carriedValue(e)
	m := deref(v.schema, v.root)
	if m == nil {
		return nil
	}
	m = plain(m)
	c := &Carried{Types: typeSet(m), Closed: closedObject(m)}
	if props, ok := m["properties"].(map[string]any); ok {
		for k := range props {
			c.Properties = append(c.Properties, k)
		}
		slices.Sort(c.Properties)
	}
	return c
}

// edgeTypeConflicts compares each edge's carried value with the input it
// binds: the port's input for an edge to "node.port", and for a port-less
// edge each input whose binding is that edge. It sets each edge's
// TypeCheck.
func (a *analyzer) edgeTypeConflicts() {
	for i := range a.d.Edges {
		e := a.d.Edges[i]
		if a.d.Node(e.From) == nil || a.d.Node(e.To) == nil {
			continue
		}
		a.d.Edges[i].TypeCheck = a.edgeTypeCheck(e)
	}
}

// edgeTypeCheck judges one edge whose two ends are nodes of the DAG, and
// says how far it could.
func (a *analyzer) edgeTypeCheck(e Edge) string {
	down := a.d.Node(e.To)
	up := a.carriedValue(e)
	in := a.inputSchema(down)
	if up.schema == nil || !in.ok {
		return TypeUnknown
	}
	j := &judge{upRoot: up.root, downRoot: a.schemaRoot(down.Type, down.Type.InputSchema)}
	if e.ToPort != "" {
		return a.portTypeCheck(e, down, up, in, j)
	}
	return a.bindingsTypeCheck(e, down, up, in, j)
}

// portTypeCheck judges an edge into an input port ("node.port", or a
// member path below it) against that port's schema.
func (a *analyzer) portTypeCheck(e Edge, down *Node, up carrying, in schemaOf, j *judge) string {
	first, rest, _ := strings.Cut(e.ToPort, ".")
	target, _ := in.props[first].(map[string]any)
	if rest != "" {
		target = descend(target, j.downRoot, rest)
	}
	if target == nil {
		return TypeUnknown
	}
	if e.FromPort != "" || !a.wholeMapMeets(e, j, target) {
		a.conflict(e, down, up.desc, e.ToPort, j.conflict(up.schema, target, "", 0))
	}
	return TypeChecked
}

// bindingsTypeCheck judges a port-less edge: each input bound for sure to
// the edge against the member of what it carries of the same name.
func (a *analyzer) bindingsTypeCheck(e Edge, down *Node, up carrying, in schemaOf, j *judge) string {
	whole := deref(up.schema, up.root)
	if whole == nil || opaque(whole) {
		return TypeUnknown
	}
	upProps, _ := whole["properties"].(map[string]any)
	checked, related := false, false
	for _, b := range down.Inputs {
		_, declared := upProps[b.Input]
		fromEdge := b.Source == SourceEdge && b.Pointer == e.Pointer
		related = related || declared && in.props[b.Input] != nil || fromEdge && b.Unsure
		if !fromEdge || b.Unsure {
			continue
		}
		target, _ := in.props[b.Input].(map[string]any)
		member, _ := upProps[b.Input].(map[string]any)
		if target == nil || member == nil {
			continue
		}
		a.conflict(e, down, fmt.Sprintf("member %q of %s", b.Input, up.desc), b.Input, j.conflict(member, target, "", 0))
		checked = true
	}
	switch {
	case checked:
		return TypeChecked
	case related:
		return TypeUnknown // related by name, but not bound for sure
	}
	return TypeUnrelated
}

// wholeMapMeets: an edge from a node without a port into an input port
// hands over either the upstream's output member "output" (where the
// reference host hands that over instead of the map) or its whole output
// map; which one the host passes is not certain, so a conflict is
// definite only when neither can fit. It reports whether the whole map
// may fit target.
func (a *analyzer) wholeMapMeets(e Edge, j *judge, target map[string]any) bool {
	s := a.outputSchema(a.d.Node(e.From))
	if _, hasOutput := s.props["output"]; !hasOutput {
		return false // the whole map is the only candidate, judged by the caller
	}
	return j.conflict(wholeMap(s), target, "", 0) == ""
}

// conflict reports the edge when why (schemaConflict's reason) is set.
func (a *analyzer) conflict(e Edge, down *Node, upDesc, input, why string) {
	if why == "" {
		return
	}
	t := down.Type
	a.report(Finding{Rule: RuleEdgeTypeConflict, Pointer: e.Pointer, Node: down.ID, Edge: e.Pointer,
		Message: fmt.Sprintf("edge %s -> %s: input %q of %q gets %s, but %s's input schema (%s@%s) %s; no value fits both, so the node refuses what the edge carries: wire a port that carries the right kind, or convert it in a node between",
			End(e.From, e.FromPort), End(e.To, e.ToPort), input, down.ID, upDesc, t.TypeID, t.Pack, t.PackVersion, why)})
}

// End names one end of an edge or a binding's upstream: "node.port", or
// "node" alone when the whole output map (or input) is meant.
func End(node, port string) string {
	if port == "" {
		return node
	}
	return node + "." + port
}
