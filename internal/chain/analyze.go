package chain

import (
	"encoding/json"
	"fmt"
	"github.com/wop-cli/wop/internal/suggest"
	"regexp"
	"slices"
	"strings"

	"github.com/wop-cli/wop/hosts"
	"github.com/wop-cli/wop/internal/catalog"
	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/regex"
)

// analyzer holds one DAG's analysis while it is made.
type analyzer struct {
	d  *DAG
	o  Options
	in map[string][]int // node id -> the indexes of the edges to it, in order
	// declared are the parameters' names: a set, as a chain may declare
	// thousands and every template and node input asks.
	declared map[string]bool
}

// analyzeDAG fills a DAG's roles, bindings, parameters and findings. The
// findings come rule by rule, each rule walking the DAG in order.
func analyzeDAG(d *DAG, o Options) {
	a := &analyzer{d: d, o: o, in: map[string][]int{}}
	for i, e := range d.Edges {
		a.in[e.To] = append(a.in[e.To], i)
	}
	for i := range d.Nodes {
		a.describe(&d.Nodes[i])
	}
	for i := range d.Edges {
		d.Edges[i].Carries = a.carried(d.Edges[i])
	}
	d.Params = a.params()
	a.declared = make(map[string]bool, len(d.Params))
	for _, p := range d.Params {
		a.declared[p.Name] = true
	}
	a.typeIDUnresolved()
	a.paramUndeclared()
	for i := range d.Nodes {
		a.bind(&d.Nodes[i])
	}
	a.feeds()
	a.markOrdering()
	a.edgeDangling()
	a.edgeTypeConflicts()
	a.cycle()
	a.unreachable()
	a.sideEffectUngated()
}

func (a *analyzer) report(f Finding) { a.d.Findings = append(a.d.Findings, f) }

// describe fills what the catalog knows of a node: its type and role.
func (a *analyzer) describe(n *Node) {
	if a.o.Catalog != nil {
		if t, ok := a.o.Catalog.NodeType(n.TypeID); ok {
			n.Type, n.Pack, n.PackVersion = t, t.Pack, t.PackVersion
		}
	}
	n.Role = role(n)
}

// gateTypeIDs are the node types the spec and the reference host suspend
// a run on for a person (the conformance suite's core.approvalGate,
// core.clarificationGate and core.interrupt, the spec's
// core.conversationGate, the core.openwop.hitl pack's interrupting
// requests): gates whatever role their pack declares. Any other type is a
// gate only when its pack declares role gate or human-input. A typeId's
// spelling says nothing: core.flow.aggregate-numeric is no gate.
var gateTypeIDs = map[string]bool{
	"core.approvalGate": true, "core.clarificationGate": true, "core.conversationGate": true, "core.interrupt": true,
	"core.hitl.approval-request": true, "core.hitl.form-request": true, "core.hitl.ask-user": true,
}

// isTriggerTypeID reports the node types that start a run: the spec's
// core.trigger.* namespace and the reference host's MCP server trigger,
// whose packs declare them pure (their output is the event).
func isTriggerTypeID(id string) bool {
	return strings.HasPrefix(id, "core.trigger.") || id == "core.openwop.mcp.server-trigger"
}

// role is what the node's type declares (catalog) or the spec and
// reference host say of its typeId; "" when neither tells.
func role(n *Node) Role {
	t := n.Type
	switch {
	case t != nil && t.Role == "trigger" || isTriggerTypeID(n.TypeID):
		return RoleTrigger
	case isGate(n):
		return RoleGate
	case sideEffectful(n):
		return RoleSideEffect
	case t != nil && t.Role == "pure":
		return RolePure
	}
	return ""
}

func sideEffectful(n *Node) bool {
	t := n.Type
	return t != nil && (t.Role == "side-effect" || slices.Contains(t.Capabilities, "side-effectful"))
}

func isGate(n *Node) bool {
	if t := n.Type; t != nil && (t.Role == "gate" || t.Role == "human-input") {
		return true
	}
	return gateTypeIDs[n.TypeID]
}

// coreReserved matches the reserved core primitives node-packs.md lists
// (core.<conceptName>, one segment, plus the multi-agent and conformance
// ones); other dotted core.* ids come from packs.
var coreReserved = regex.Lazy(`^core\.([a-zA-Z][a-zA-Z0-9]*|orchestrator\.supervisor|mcp\.toolCall|conformance\..+)$`)

func (a *analyzer) typeIDUnresolved() {
	c := a.o.Catalog
	if c == nil {
		return // without a catalog wop cannot know what other packs define
	}
	knownHost, known := hosts.Providers(c), knownTypeIDs(c)
	for _, n := range a.d.Nodes {
		if n.TypeID == "" || a.o.OwnTypeIDs[n.TypeID] || coreReserved().MatchString(n.TypeID) || strings.HasPrefix(n.TypeID, "local.") || c.HasType(n.TypeID) {
			continue
		}
		if h := knownHost(n.TypeID); h != nil {
			a.report(Finding{Rule: RuleTypeIDUnresolved, Pointer: n.Pointer + "/typeId", Node: n.ID, Info: true,
				Message: fmt.Sprintf("node %q: typeId %q is provided by host %s (wop's %s), not by any pack in the catalog: the chain runs only on that host; lint with --host %s to check against it, or use a published typeId", n.ID, n.TypeID, h.Name, h.Path, h.Name)})
			continue
		}
		fix := "use a published typeId or publish the node"
		if meant, ok := suggest.Only(n.TypeID, known(), 2); ok {
			fix = fmt.Sprintf("did you mean %q?", meant)
		}
		a.report(Finding{Rule: RuleTypeIDUnresolved, Pointer: n.Pointer + "/typeId", Node: n.ID,
			Message: fmt.Sprintf("node %q: no pack in the catalog defines typeId %q and it is not a reserved core primitive; hosts refuse the expansion (chain_unresolvable_typeid): %s", n.ID, n.TypeID, fix)})
	}
}

// knownTypeIDs lists the catalog's typeIds once, when a did-you-mean is
// first needed: most chains resolve every node and never ask.
func knownTypeIDs(c *catalog.Catalog) func() []string {
	var ids []string
	return func() []string {
		if ids == nil {
			ids = []string{}
			for _, t := range c.NodeTypes() {
				ids = append(ids, t.TypeID)
			}
		}
		return ids
	}
}

// paramTemplate matches a {{params.name}} placeholder.
var paramTemplate = regex.Lazy(`\{\{\s*params\.([A-Za-z_$][A-Za-z0-9_$-]*)\s*\}\}`)

// ParamTemplate returns the expression matching a {{params.name}}
// placeholder, the name its first group.
func ParamTemplate() *regexp.Regexp { return paramTemplate() }

func (a *analyzer) paramUndeclared() {
	for _, n := range a.d.Nodes {
		walkStrings(n.Value, n.Pointer, func(ptr, s string) {
			for _, m := range paramTemplate().FindAllStringSubmatch(s, -1) {
				if !a.declared[m[1]] {
					a.report(Finding{Rule: RuleParamUndeclared, Pointer: ptr, Node: n.ID,
						Message: fmt.Sprintf("node %q uses {{params.%s}} but the chain declares no parameter %q; hosts substitute nothing: declare it under parameters.properties or fix the name", n.ID, m[1], m[1])})
				}
			}
		})
	}
}

// walkStrings calls fn for every string value below v.
func walkStrings(v *jsonpos.Value, ptr string, fn func(ptr, s string)) {
	switch v.Kind {
	case jsonpos.String:
		fn(ptr, v.Str)
	case jsonpos.Object:
		for _, m := range v.Members {
			walkStrings(m.Value, ptr+"/"+jsonpos.EscapeToken(m.Name), fn)
		}
	case jsonpos.Array:
		for i, it := range v.Items {
			walkStrings(it, fmt.Sprintf("%s/%d", ptr, i), fn)
		}
	}
}

// params reads the declared chain parameters.
func (a *analyzer) params() []Param {
	pv := a.d.ParamsSchema
	props := pv.Get("properties")
	if props == nil || props.Kind != jsonpos.Object {
		return nil
	}
	var required []string
	if r := pv.Get("required"); r != nil && r.Kind == jsonpos.Array {
		for _, it := range r.Items {
			required = append(required, it.String())
		}
	}
	out := make([]Param, 0, len(props.Members))
	for _, m := range props.Members {
		p := Param{Name: m.Name, Required: slices.Contains(required, m.Name), Pointer: a.d.ParamsPointer + "/properties/" + jsonpos.EscapeToken(m.Name)}
		if t := m.Value.Get("type"); t != nil && t.Kind == jsonpos.String {
			p.Type = t.Str
		}
		p.Default = m.Value.Get("default") != nil
		out = append(out, p)
	}
	return out
}

// feeds fills each parameter's Feeds: the nodes that template it and those
// whose input it binds. One walk of each node, whatever the number of
// parameters.
func (a *analyzer) feeds() {
	byName := make(map[string]int, len(a.d.Params))
	for i, p := range a.d.Params {
		byName[p.Name] = i
	}
	for _, n := range a.d.Nodes {
		names := map[string]bool{}
		walkStrings(n.Value, "", func(_, s string) {
			for _, m := range paramTemplate().FindAllStringSubmatch(s, -1) {
				names[m[1]] = true
			}
		})
		for _, b := range n.Inputs {
			if b.Source == SourceParameter && b.Param != "" {
				names[b.Param] = true
			}
		}
		for name := range names {
			if i, ok := byName[name]; ok {
				a.d.Params[i].Feeds = append(a.d.Params[i].Feeds, n.ID)
			}
		}
	}
}

// schemaOf is a node type's schema as the catalog describes it: its
// top-level properties, required ones, and whether it is closed.
type schemaOf struct {
	props    map[string]any
	required []string
	closed   bool
	ok       bool
}

// schema reads the schema at ref of node type t (ok false when unknown).
func (a *analyzer) schema(t *catalog.NodeType, ref string) schemaOf {
	if t == nil || a.o.Catalog == nil {
		return schemaOf{}
	}
	url, ok := a.o.Catalog.SchemaURL(t, ref)
	if !ok {
		return schemaOf{}
	}
	var s schemaOf
	s.props, s.required, s.closed, s.ok = a.o.Catalog.Properties(url)
	return s
}

func (a *analyzer) inputSchema(n *Node) schemaOf {
	if n.Type == nil {
		return schemaOf{}
	}
	return a.schema(n.Type, n.Type.InputSchema)
}

func (a *analyzer) outputSchema(n *Node) schemaOf {
	if n.Type == nil {
		return schemaOf{}
	}
	return a.schema(n.Type, n.Type.OutputSchema)
}

func (a *analyzer) edgeDangling() {
	for _, e := range a.d.Edges {
		for _, end := range []struct{ member, node, port string }{{"from", e.From, e.FromPort}, {"to", e.To, e.ToPort}} {
			n := a.d.Node(end.node)
			if n == nil {
				a.report(Finding{Rule: RuleEdgeDangling, Pointer: e.Pointer + "/" + end.member, Edge: e.Pointer,
					Message: fmt.Sprintf("edge %s %q names no node of this DAG (nodes: %s); fix the id", end.member, end.node, nodeIDs(a.d))})
				continue
			}
			a.edgePort(e, n, end.member, end.port)
		}
	}
}

// edgePort reports a port the node type's closed input or output schema
// does not declare.
func (a *analyzer) edgePort(e Edge, n *Node, member, port string) {
	if n.Type == nil || port == "" || member == "to" && e.OrderingOnly {
		return
	}
	s, kind := a.outputSchema(n), "output"
	if member == "to" {
		s, kind = a.inputSchema(n), "input"
	}
	if !s.ok || !s.closed {
		return
	}
	if _, declared := s.props[strings.SplitN(port, ".", 2)[0]]; !declared {
		a.report(Finding{Rule: RuleEdgeDangling, Pointer: e.Pointer + "/" + member, Node: n.ID, Edge: e.Pointer,
			Message: fmt.Sprintf("edge %s port %q: %s's %s schema declares no %q (it has %s)%s", member, port, n.Type.TypeID, kind, port, KeyList(s.props), portHint(port, s))})
	}
}

// KeyList names a schema's properties as findings list them: sorted, at
// most eight, then "..." ("no keys" for none).
func KeyList(props map[string]any) string {
	keys := make([]string, 0, len(props))
	for k := range props {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if len(keys) == 0 {
		return "no keys"
	}
	if len(keys) > 8 {
		keys = append(keys[:8], "...")
	}
	return strings.Join(keys, ", ")
}

func nodeIDs(d *DAG) string {
	ids := make([]string, 0, len(d.Nodes))
	for _, n := range d.Nodes {
		ids = append(ids, n.ID)
	}
	out, _ := json.Marshal(ids)
	return string(out)
}
