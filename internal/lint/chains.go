package lint

import (
	"strconv"
	"strings"

	"github.com/wop-cli/wop/internal/catalog"
	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/regex"
	"github.com/wop-cli/wop/internal/spec"
)

// dag is one DAG a pack carries (a workflow chain's fragment, or any other
// "dag" member with nodes), with what the chain rules need to know of it.
type dag struct {
	ptr    string // pointer to the dag object
	params *jsonpos.Value
	nodes  []dagNode
	edges  []dagEdge
}

type dagNode struct {
	ptr    string
	id     string
	typeID string // without a v2 "@version" pin
	pin    string // a v2 node reference's "@version", without the "@"
	pinned bool   // the reference has an "@"
	v      *jsonpos.Value
}

// dagEdge is an edge; from and to are "node" or "node.port".
type dagEdge struct {
	ptr              string
	fromNode, toNode string
	fromPort, toPort string
}

// dags finds every DAG in the manifest: chains[].dag, and any other member
// named "dag" holding a nodes array. The chain rules share one walk.
func dags(p *Pass) []*dag {
	if p.dagsDone {
		return p.dags
	}
	p.dags, p.dagsDone = findDAGs(p), true
	return p.dags
}

func findDAGs(p *Pass) []*dag {
	var out []*dag
	var walk func(v *jsonpos.Value, ptr string, params *jsonpos.Value)
	walk = func(v *jsonpos.Value, ptr string, params *jsonpos.Value) {
		switch v.Kind {
		case jsonpos.Object:
			if pv := v.Get("parameters"); pv != nil && v.Get("dag") != nil {
				params = pv
			}
			for _, m := range v.Members {
				at := ptr + "/" + jsonpos.EscapeToken(m.Name)
				if m.Name == "dag" && m.Value.Kind == jsonpos.Object && m.Value.Get("nodes") != nil {
					out = append(out, newDAG(m.Value, at, params, p.Spec == spec.V2))
					continue
				}
				walk(m.Value, at, params)
			}
		case jsonpos.Array:
			for i, it := range v.Items {
				walk(it, ptr+"/"+strconv.Itoa(i), params)
			}
		}
	}
	if root := p.Root(); root != nil {
		walk(root, "", nil)
	}
	return out
}

// newDAG reads one DAG. In v2 a node's typeId carries its version pin
// ("core.ai.callPrompt@1.0.0"), split off so the other rules see the typeId.
func newDAG(v *jsonpos.Value, ptr string, params *jsonpos.Value, v2 bool) *dag {
	d := &dag{ptr: ptr, params: params}
	eachObject(v.Get("nodes"), ptr+"/nodes", func(np string, n *jsonpos.Value) {
		node := dagNode{ptr: np, id: n.Get("id").String(), typeID: n.Get("typeId").String(), v: n}
		if v2 {
			node.typeID, node.pin, node.pinned = spec.SplitPin(node.typeID)
		}
		d.nodes = append(d.nodes, node)
	})
	eachObject(v.Get("edges"), ptr+"/edges", func(ep string, e *jsonpos.Value) {
		edge := dagEdge{ptr: ep}
		edge.fromNode, edge.fromPort = d.splitEnd(e.Get("from").String())
		edge.toNode, edge.toPort = d.splitEnd(e.Get("to").String())
		d.edges = append(d.edges, edge)
	})
	return d
}

// splitEnd splits an edge end "node.port" into node and port; an end that
// names a node outright (ids may contain dots) has no port.
func (d *dag) splitEnd(end string) (node, port string) {
	if d.node(end) != nil {
		return end, ""
	}
	if i := strings.IndexByte(end, '.'); i > 0 && d.node(end[:i]) != nil {
		return end[:i], end[i+1:]
	}
	return end, ""
}

func (d *dag) node(id string) *dagNode {
	for i := range d.nodes {
		if d.nodes[i].id == id {
			return &d.nodes[i]
		}
	}
	return nil
}

// coreReserved matches the reserved core primitives node-packs.md lists
// (core.<conceptName>, one segment, plus the multi-agent and conformance
// ones); other dotted core.* ids come from packs.
var coreReserved = regex.Lazy(`^core\.([a-zA-Z][a-zA-Z0-9]*|orchestrator\.supervisor|mcp\.toolCall|conformance\..+)$`)

// nodeType is what the catalog knows of a DAG node's type (nil without a
// catalog, or when no pack defines it).
func nodeType(p *Pass, n dagNode) *catalog.NodeType {
	if p.Catalog == nil {
		return nil
	}
	t, _ := p.Catalog.NodeType(n.typeID)
	return t
}

// paramTemplate matches a {{params.name}} placeholder.
var paramTemplate = regex.Lazy(`\{\{\s*params\.([A-Za-z_$][A-Za-z0-9_$-]*)\s*\}\}`)
