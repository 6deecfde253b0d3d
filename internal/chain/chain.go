// Package chain turns a pack's chains plus catalog facts into an analysed
// graph: each DAG's nodes with their roles, its edges with what they carry,
// its parameters, where every input of every node gets its value, and the
// chain rules' findings. It is computed once and read by many: lint reports
// its findings, the graph printers draw it, the editor hovers from it, so a
// drawing never re-derives what lint decided (STYLE.md 2.13). It states
// what it found; it neither prints nor knows lint's rule registry.
package chain

import (
	"strings"

	"github.com/wop-cli/wop/internal/catalog"
	"github.com/wop-cli/wop/internal/jsonpos"
)

// The rule ids of the findings Analyze makes, as lint registers them.
const (
	RuleTypeIDUnresolved  = "chain-typeid-unresolved"
	RuleParamUndeclared   = "chain-param-undeclared"
	RuleInputUnbound      = "chain-input-unbound"
	RuleEdgeDangling      = "chain-edge-dangling"
	RuleEdgeTypeConflict  = "chain-edge-type-conflict"
	RuleCycle             = "chain-cycle"
	RuleNodeUnreachable   = "chain-node-unreachable"
	RuleNodeTitleForeign  = "chain-node-title-foreign"
	RuleSideEffectUngated = "chain-side-effect-ungated"
)

// Rules lists the rule ids Analyze reports, sorted.
func Rules() []string {
	return []string{
		RuleCycle, RuleEdgeDangling, RuleEdgeTypeConflict, RuleInputUnbound,
		RuleNodeTitleForeign, RuleNodeUnreachable, RuleParamUndeclared,
		RuleSideEffectUngated, RuleTypeIDUnresolved,
	}
}

// Options are the facts an analysis reads besides the manifest.
type Options struct {
	// Catalog says what node types other packs define, with their roles and
	// schemas. nil: roles, schema-derived bindings, and the findings that
	// need schemas are left out (a chain alone cannot tell).
	Catalog *catalog.Catalog
	// V2 is set when the pack is judged by the v2 tree: a node's typeId
	// then carries its version pin ("core.ai.callPrompt@1.0.0").
	V2 bool
	// OwnTypeIDs are the typeIds the pack itself defines (its nodes[]):
	// a chain may use them though no catalog pack defines them.
	OwnTypeIDs map[string]bool
	// Fills reports whether node type t's own executor copes with input
	// being absent (a fallback, a default, a presence check). nil: never.
	// lint passes its executor reader; it is called only for required
	// inputs nothing else binds, so an expensive reader runs rarely.
	Fills func(t *catalog.NodeType, input string) bool
}

// Analysis is every DAG of one manifest, analysed.
type Analysis struct {
	// DAGs are in the order they appear in pack.json: chains[].dag, and any
	// other member named "dag" that holds a nodes array.
	DAGs []*DAG `json:"dags"`
}

// DAG is one chain's graph (or any other "dag" member with nodes).
type DAG struct {
	// Pointer is the JSON pointer of the dag object ("/chains/0/dag").
	Pointer string `json:"pointer"`
	// ChainID and Title are the enclosing chain's chainId and label ("" for
	// a DAG outside chains[] or a chain without them).
	ChainID string `json:"chainId,omitempty"`
	Title   string `json:"title,omitempty"`
	Nodes   []Node `json:"nodes"`
	Edges   []Edge `json:"edges"`
	// Params are the chain's declared parameters, in declaration order
	// (nil when it declares none).
	Params []Param `json:"parameters,omitempty"`
	// ParamsPointer is the pointer of the parameters schema ("" if none).
	ParamsPointer string `json:"parametersPointer,omitempty"`
	// Findings are the chain rules' findings on this DAG, in a stable
	// order: grouped by rule (in a fixed order of the rules), each rule's
	// in the order it walks the DAG.
	Findings []Finding `json:"findings,omitempty"`
	// ParamsSchema is the parameters schema's value (nil if none).
	ParamsSchema *jsonpos.Value `json:"-"`

	index map[string]int // node id -> its first node's index (nil: search)
}

// Role is what a node does, as far as the catalog and its typeId tell.
type Role string

// The roles a node can have; "" when nothing tells.
const (
	RoleTrigger    Role = "trigger"     // starts a run (a trigger node type)
	RoleGate       Role = "gate"        // asks a person before the run goes on
	RoleSideEffect Role = "side-effect" // has effects outside the run
	RolePure       Role = "pure"        // output depends on its input only
)

// Node is one DAG node.
type Node struct {
	ID     string `json:"id"`
	Name   string `json:"name,omitempty"` // the node's "name" ("" if none)
	TypeID string `json:"typeId"`         // without a v2 "@version" pin
	Pin    string `json:"pin,omitempty"`  // the v2 pin, without the "@"
	// Pinned is set when the reference carries an "@" (Pin may be "").
	Pinned bool `json:"pinned,omitempty"`
	Role   Role `json:"role,omitempty"`
	// Pack and PackVersion name the catalog pack defining TypeID ("" when
	// unknown).
	Pack        string    `json:"pack,omitempty"`
	PackVersion string    `json:"packVersion,omitempty"`
	Position    *Position `json:"position,omitempty"`
	Pointer     string    `json:"pointer"`
	// Inputs say where each input gets its value: every input the node
	// type's schema declares or requires, then any other the chain sets or
	// an edge feeds. Required inputs come first, each group by name.
	Inputs []Binding `json:"inputs"`

	// Type is what the catalog knows of the node type (nil: unknown).
	Type *catalog.NodeType `json:"-"`
	// Value is the node's object in pack.json.
	Value *jsonpos.Value `json:"-"`
}

// Position is a node's canvas position as the author left it.
type Position struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

// Edge is one edge; From and To name nodes, FromPort and ToPort their ports
// ("" for an end without a port, which hands over or receives a whole map).
type Edge struct {
	From     string `json:"from"`
	FromPort string `json:"fromPort,omitempty"`
	To       string `json:"to"`
	ToPort   string `json:"toPort,omitempty"`
	Pointer  string `json:"pointer"`
	// Dangling is set when From or To names no node of the DAG.
	Dangling bool `json:"dangling,omitempty"`
	// OrderingOnly is set when the edge only orders its target after its
	// source: its port is no input of the target's type (see markOrdering),
	// so the target reads nothing from it, and it is no dangling edge.
	OrderingOnly bool `json:"orderingOnly,omitempty"`
	// Carries is what the upstream output (its port's member, or the whole
	// output map) is known to carry; nil when its schema is unknown.
	Carries *Carried `json:"carries,omitempty"`
	// TypeCheck says how far chain-edge-type-conflict could judge the edge:
	// TypeChecked, TypeUnrelated or TypeUnknown ("" when an end names no
	// node).
	TypeCheck string `json:"typeCheck,omitempty"`
	// Gating is the edge's condition and trigger rule (read.go).
	Gating
}

// Carried describes the value an edge hands over, from the upstream node
// type's output schema.
type Carried struct {
	// Types is the JSON Schema type set ("" members never; empty: any).
	Types []string `json:"types,omitempty"`
	// Properties are the member names it declares, sorted.
	Properties []string `json:"properties,omitempty"`
	// Closed is set when it can carry no other member.
	Closed bool `json:"closed,omitempty"`
}

// Param is one declared chain parameter.
type Param struct {
	Name     string `json:"name"`
	Type     string `json:"type,omitempty"` // its schema's type ("" if none or several)
	Required bool   `json:"required,omitempty"`
	Default  bool   `json:"hasDefault,omitempty"`
	Pointer  string `json:"pointer"`
	// Feeds are the ids of the nodes it reaches: those that template it
	// ({{params.name}}) and those no edge reaches whose input it binds,
	// in node order.
	Feeds []string `json:"feeds,omitempty"`
}

// Source is where an input's value comes from.
type Source string

// The sources of an input's value.
const (
	SourceEdge      Source = "edge"      // an edge: to "node.port", or a port-less edge's whole map
	SourceInputs    Source = "inputs"    // the node's own inputs member
	SourceConfig    Source = "config"    // the node's config member
	SourceParameter Source = "parameter" // the run's inputs, for a node no edge reaches
	SourceDefault   Source = "default"   // the node type's schema default or documented fallback
	SourceExecutor  Source = "executor"  // the node type's executor fills it
	SourceUnbound   Source = "unbound"   // nothing binds it
)

// Binding is where one input of a node gets its value.
type Binding struct {
	Input    string `json:"input"`
	Required bool   `json:"required,omitempty"`
	Source   Source `json:"source"`
	// From and Port name the upstream node and its port for SourceEdge
	// (Port "" for the whole output map).
	From string `json:"from,omitempty"`
	Port string `json:"port,omitempty"`
	// Param names the parameter for SourceParameter ("" when the
	// parameters schema is missing or open, so any run input may carry it).
	Param string `json:"param,omitempty"`
	// Pointer proves it: the edge, the inputs/config member, the parameter
	// declaration, or the node (for defaults, executor fills and unbound).
	Pointer string `json:"pointer"`
	// Unsure is set when the source may carry the input but the schemas
	// cannot tell (a port-less edge from an upstream with an open or
	// unknown output, an open or missing parameters schema).
	Unsure bool `json:"unsure,omitempty"`
	// Detail says more in words ("its schema gives it a default").
	Detail string `json:"detail,omitempty"`
}

// Finding is one chain rule's finding.
type Finding struct {
	Rule    string `json:"rule"`
	Pointer string `json:"pointer"`
	// Node is the id of the node it is about ("" when it is about an edge
	// alone); Edge is the pointer of the edge it is about ("" if none).
	Node    string `json:"node,omitempty"`
	Edge    string `json:"edge,omitempty"`
	Message string `json:"message"`
	// Info is set when the finding is information whatever the rule's
	// severity: a typeId only a host wop knows provides
	// (chain-typeid-unresolved) runs on that host.
	Info bool `json:"-"`
}

// Findings returns every DAG's findings, DAG by DAG.
func (a *Analysis) Findings() []Finding {
	var out []Finding
	for _, d := range a.DAGs {
		out = append(out, d.Findings...)
	}
	return out
}

// Node returns the (first) node with id, or nil.
func (d *DAG) Node(id string) *Node {
	if d.index != nil {
		if i, ok := d.index[id]; ok {
			return &d.Nodes[i]
		}
		return nil
	}
	for i := range d.Nodes {
		if d.Nodes[i].ID == id {
			return &d.Nodes[i]
		}
	}
	return nil
}

// Analyze analyses every DAG of a manifest's root value (nil: an empty
// analysis). It never fails: what it cannot read it leaves out.
func Analyze(root *jsonpos.Value, o Options) *Analysis {
	a := &Analysis{}
	if root == nil {
		return a
	}
	a.DAGs = findDAGs(root, o.V2)
	for _, d := range a.DAGs {
		analyzeDAG(d, o)
	}
	titleFindings(root, a, o)
	return a
}

// NodeAt returns the DAG and node whose JSON pointer is ptr or encloses it
// (a pointer into the node's inputs finds the node); nil, nil when none.
func (a *Analysis) NodeAt(ptr string) (*DAG, *Node) {
	for _, d := range a.DAGs {
		for i := range d.Nodes {
			n := &d.Nodes[i]
			if ptr == n.Pointer || strings.HasPrefix(ptr, n.Pointer+"/") {
				return d, n
			}
		}
	}
	return nil, nil
}
