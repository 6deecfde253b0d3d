package chaindraw

import (
	"slices"
	"strings"

	"github.com/wop-cli/wop/internal/chain"
)

// view is one chart as every printer draws it: the chain's nodes and
// edges, with the previous release's removed ones added back and marked,
// and each finding placed on the node or edge it is about.
type view struct {
	title    string // the chain's id and label, or the DAG's pointer
	nodes    []vnode
	edges    []vedge
	params   []chain.Param
	loose    []chain.Finding // findings about neither a drawn node nor edge
	changes  *Changes
	findings int
}

type vnode struct {
	chain.Node
	mark     Mark
	missing  bool // an edge names it, the chain has no such node
	findings []chain.Finding
}

type vedge struct {
	chain.Edge
	mark     Mark
	findings []chain.Finding
}

func newView(c Chart) *view {
	d := c.DAG
	v := &view{title: chartTitle(c), params: d.Params, changes: c.Changes, findings: len(d.Findings)}
	nodeAt := map[string]int{}
	for _, n := range d.Nodes {
		nodeAt[n.ID] = len(v.nodes)
		v.nodes = append(v.nodes, vnode{Node: n, mark: c.Changes.node(n.ID)})
	}
	edgeAt := map[string]int{}
	for _, e := range d.Edges {
		edgeAt[e.Pointer] = len(v.edges)
		v.edges = append(v.edges, vedge{Edge: e, mark: c.Changes.edge(e)})
	}
	if c.Changes != nil && c.Changes.Previous != nil {
		for _, n := range c.Changes.Previous.Nodes {
			if c.Changes.Nodes[n.ID] == Removed {
				v.nodes = append(v.nodes, vnode{Node: n, mark: Removed})
			}
		}
		for _, e := range c.Changes.Previous.Edges {
			if c.Changes.Edges[EdgeKey(e)] == Removed {
				v.edges = append(v.edges, vedge{Edge: e, mark: Removed})
			}
		}
	}
	drawn := map[string]bool{}
	for _, n := range v.nodes {
		drawn[n.ID] = true
	}
	for _, e := range v.edges {
		for _, id := range []string{e.From, e.To} {
			if !drawn[id] {
				drawn[id] = true
				v.nodes = append(v.nodes, vnode{Node: chain.Node{ID: id}, missing: true})
			}
		}
	}
	for _, f := range d.Findings {
		if i, ok := edgeAt[f.Edge]; ok && f.Edge != "" {
			v.edges[i].findings = append(v.edges[i].findings, f)
		} else if i, ok := nodeAt[f.Node]; ok && f.Node != "" {
			v.nodes[i].findings = append(v.nodes[i].findings, f)
		} else {
			v.loose = append(v.loose, f)
		}
	}
	return v
}

func chartTitle(c Chart) string {
	d := c.DAG
	switch {
	case d.ChainID != "" && d.Title != "":
		return d.ChainID + " (" + d.Title + ")"
	case d.ChainID != "":
		return d.ChainID
	}
	return d.Pointer
}

func (c *Changes) node(id string) Mark {
	if c == nil {
		return ""
	}
	return c.Nodes[id]
}

func (c *Changes) edge(e chain.Edge) Mark {
	if c == nil {
		return ""
	}
	return c.Edges[EdgeKey(e)]
}

func (c *Changes) input(node, input string) Mark {
	if c == nil {
		return ""
	}
	return c.Inputs[node][input]
}

// source says in a few words where a bound input's value comes from.
func source(b chain.Binding) string {
	var s string
	switch b.Source {
	case chain.SourceEdge:
		s = "edge from " + chain.End(b.From, b.Port)
	case chain.SourceInputs:
		s = "inputs"
	case chain.SourceConfig:
		s = "config"
	case chain.SourceParameter:
		s = "params"
		if b.Param != "" {
			s += "." + b.Param
		}
	case chain.SourceDefault:
		s = "default"
	case chain.SourceExecutor:
		s = "executor fills it"
	case chain.SourceUnbound:
		s = "UNBOUND"
	default:
		s = string(b.Source)
	}
	if b.Unsure {
		s += "?"
	}
	return s
}

// shown are the inputs a drawing lists for a node: the required ones (where
// each comes from, or that nothing binds it) and any whose source changed;
// an optional input nothing binds is no defect and not drawn.
func (v *view) shown(n vnode) []chain.Binding {
	var out []chain.Binding
	for _, b := range n.Inputs {
		if b.Required || v.changes.input(n.ID, b.Input) != "" {
			out = append(out, b)
		}
	}
	return out
}

// removedInputs are the inputs of node id bound in the previous release
// and bound no longer.
func (v *view) removedInputs(id string) []string {
	if v.changes == nil {
		return nil
	}
	var out []string
	for name, m := range v.changes.Inputs[id] {
		if m == Removed {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// ruleShort is a finding's rule id without the family prefix, for labels.
func ruleShort(f chain.Finding) string {
	return strings.TrimPrefix(f.Rule, "chain-")
}

// line is one line of a node's label.
type line struct {
	text string
	kind lineKind
	mark Mark // for lineMark
}

type lineKind int

const (
	lineID lineKind = iota
	lineName
	lineType
	lineInput
	lineUnbound
	lineFinding
	lineMark   // added, removed or changed: the text drawing's frame says it
	lineChange // what changed
)

// label is what a drawing writes in a node's box, line by line.
func (v *view) label(n vnode) []line {
	out := []line{{text: n.ID, kind: lineID}}
	if n.mark != "" {
		out = append(out, line{text: markSign(n.mark) + string(n.mark), kind: lineMark, mark: n.mark})
	}
	if n.missing {
		return append(out, line{text: "no such node", kind: lineFinding})
	}
	if n.Name != "" && n.Name != n.ID {
		out = append(out, line{text: n.Name, kind: lineName})
	}
	t := n.TypeID
	if n.Pinned {
		t += "@" + n.Pin
	}
	if n.Role != "" {
		t += " · " + string(n.Role)
	}
	out = append(out, line{text: t, kind: lineType})
	for _, b := range v.shown(n) {
		l := line{text: markSign(v.changes.input(n.ID, b.Input)) + b.Input + " ← " + source(b), kind: lineInput}
		if b.Source == chain.SourceUnbound && b.Required {
			l.kind = lineUnbound
		}
		out = append(out, l)
	}
	for _, name := range v.removedInputs(n.ID) {
		out = append(out, line{text: markSign(Removed) + name, kind: lineInput})
	}
	if n.mark == Changed && v.changes != nil {
		for _, d := range v.changes.NodeDetails[n.ID] {
			out = append(out, line{text: d, kind: lineChange})
		}
	}
	for _, f := range n.findings {
		out = append(out, line{text: "⚠ " + ruleShort(f), kind: lineFinding})
	}
	return out
}

// markSign prefixes a changed input as a diff does.
func markSign(m Mark) string {
	switch m {
	case Added:
		return "+ "
	case Removed:
		return "− "
	case Changed:
		return "~ "
	}
	return ""
}

// edgeLabel is the text on an edge: how it changed, its ports, its
// condition, a trigger rule other than the default, and its findings.
func (v *view) edgeLabel(e vedge) string {
	var parts []string
	if e.mark != "" {
		parts = append(parts, strings.TrimSpace(markSign(e.mark)))
	}
	switch {
	case e.OrderingOnly:
		// The port only names the ordering (_order): nothing is handed
		// over, so the ports would read as data that is not there.
		parts = append(parts, "order only")
	case e.FromPort != "" && e.ToPort != "":
		parts = append(parts, e.FromPort+" → "+e.ToPort)
	case e.FromPort != "":
		parts = append(parts, e.FromPort+" →")
	case e.ToPort != "":
		parts = append(parts, "→ "+e.ToPort)
	}
	if g := gatingText(e.Gating); g != "" {
		parts = append(parts, g)
	}
	if e.mark == Changed && v.changes != nil {
		parts = append(parts, "("+strings.Join(v.changes.EdgeDetails[EdgeKey(e.Edge)], "; ")+")")
	}
	for _, f := range e.findings {
		parts = append(parts, "⚠ "+ruleShort(f))
	}
	return strings.Join(parts, " ")
}

// gatingText says when an edge hands over: "if not approved",
// "[none_failed]"; "" for an unconditional edge under the default rule.
func gatingText(g chain.Gating) string {
	var parts []string
	if g.When != "" {
		parts = append(parts, "if "+g.When)
	}
	if g.TriggerRule != "" && g.TriggerRule != chain.DefaultTriggerRule {
		parts = append(parts, "["+g.TriggerRule+"]")
	}
	return strings.Join(parts, " ")
}

// paramText is a parameter's label: how it changed, its name, and
// "required" when a run must give it ("newly required" when it need not
// before).
func (v *view) paramText(p chain.Param) string {
	s := "params." + p.Name
	if v.changes != nil {
		if m := v.changes.Params[p.Name]; m != "" {
			s = markSign(m) + s
		}
	}
	switch {
	case v.changes != nil && slices.Contains(v.changes.NewRequired, p.Name):
		s += " (newly required)"
	case p.Required && !p.Default:
		s += " (required)"
	}
	return s
}
