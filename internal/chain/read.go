package chain

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/spec"
)

// findDAGs finds every DAG in the manifest: chains[].dag, and any other
// member named "dag" holding a nodes array, with the parameters of the
// object that holds it.
func findDAGs(root *jsonpos.Value, v2 bool) []*DAG {
	var out []*DAG
	type scope struct {
		params         *jsonpos.Value
		paramsPtr      string
		chainID, title string
	}
	var walk func(v *jsonpos.Value, ptr string, s scope)
	walk = func(v *jsonpos.Value, ptr string, s scope) {
		switch v.Kind {
		case jsonpos.Object:
			if v.Get("dag") != nil {
				if pv := v.Get("parameters"); pv != nil {
					s.params, s.paramsPtr = pv, ptr+"/parameters"
				}
				s.chainID, s.title = "", ""
				if strings.HasPrefix(ptr, "/chains/") && strings.Count(ptr, "/") == 2 {
					s.chainID, s.title = v.Get("chainId").String(), strings.TrimSpace(v.Get("label").String())
				}
			}
			for _, m := range v.Members {
				at := ptr + "/" + jsonpos.EscapeToken(m.Name)
				if m.Name == "dag" && m.Value.Kind == jsonpos.Object && m.Value.Get("nodes") != nil {
					d := newDAG(m.Value, at, v2)
					d.ParamsSchema, d.ChainID, d.Title = s.params, s.chainID, s.title
					if s.params != nil {
						d.ParamsPointer = s.paramsPtr
					}
					out = append(out, d)
					continue
				}
				walk(m.Value, at, s)
			}
		case jsonpos.Array:
			for i, it := range v.Items {
				walk(it, ptr+"/"+strconv.Itoa(i), s)
			}
		}
	}
	walk(root, "", scope{})
	return out
}

// newDAG reads one DAG. In v2 a node's typeId carries its version pin
// ("core.ai.callPrompt@1.0.0"), split off so the rules see the typeId.
func newDAG(v *jsonpos.Value, ptr string, v2 bool) *DAG {
	d := &DAG{Pointer: ptr, Nodes: []Node{}, Edges: []Edge{}}
	eachObject(v.Get("nodes"), ptr+"/nodes", func(np string, n *jsonpos.Value) {
		node := Node{Pointer: np, ID: n.Get("id").String(), TypeID: n.Get("typeId").String(), Value: n, Inputs: []Binding{}}
		if name := n.Get("name"); name != nil && name.Kind == jsonpos.String {
			node.Name = name.Str
		}
		if v2 {
			node.TypeID, node.Pin, node.Pinned = spec.SplitPin(node.TypeID)
		}
		node.Position = position(n.Get("position"))
		d.Nodes = append(d.Nodes, node)
	})
	d.index = make(map[string]int, len(d.Nodes))
	for i, n := range d.Nodes {
		if _, dup := d.index[n.ID]; !dup {
			d.index[n.ID] = i
		}
	}
	eachObject(v.Get("edges"), ptr+"/edges", func(ep string, e *jsonpos.Value) {
		edge := Edge{Pointer: ep}
		edge.From, edge.FromPort = d.splitEnd(e.Get("from").String())
		edge.To, edge.ToPort = d.splitEnd(e.Get("to").String())
		edge.Dangling = d.Node(edge.From) == nil || d.Node(edge.To) == nil
		edge.Gating = gating(e)
		d.Edges = append(d.Edges, edge)
	})
	return d
}

// position reads {"x": n, "y": n} (nil when either is not a number).
func position(v *jsonpos.Value) *Position {
	x, y := v.Get("x"), v.Get("y")
	if x == nil || y == nil || x.Kind != jsonpos.Number || y.Kind != jsonpos.Number {
		return nil
	}
	fx, errX := strconv.ParseFloat(x.Num, 64)
	fy, errY := strconv.ParseFloat(y.Num, 64)
	if errX != nil || errY != nil {
		return nil
	}
	return &Position{X: fx, Y: fy}
}

// splitEnd splits an edge end "node.port" into node and port; an end that
// names a node outright (ids may contain dots) has no port.
func (d *DAG) splitEnd(end string) (node, port string) {
	if d.Node(end) != nil {
		return end, ""
	}
	if i := strings.IndexByte(end, '.'); i > 0 && d.Node(end[:i]) != nil {
		return end[:i], end[i+1:]
	}
	return end, ""
}

// eachObject calls fn for every object item of an array value.
func eachObject(arr *jsonpos.Value, ptr string, fn func(ptr string, v *jsonpos.Value)) {
	if arr == nil || arr.Kind != jsonpos.Array {
		return
	}
	for i, it := range arr.Items {
		if it.Kind == jsonpos.Object {
			fn(ptr+"/"+strconv.Itoa(i), it)
		}
	}
}

// Gating is when an edge lets its target run: its condition on the
// upstream's output and its trigger rule, as pack.json has them.
type Gating struct {
	// Condition is the edge's "condition" member as pack.json has it (nil:
	// none, the edge always hands over); When says it in words.
	Condition any    `json:"condition,omitempty"`
	When      string `json:"when,omitempty"`
	// TriggerRule is the edge's "triggerRule" ("all_success", "none_failed",
	// "any_success", "all_complete"; "" when it has none).
	TriggerRule string `json:"triggerRule,omitempty"`
}

// DefaultTriggerRule is the trigger rule of an edge that names none; the
// drawings leave it out.
const DefaultTriggerRule = "all_success"

func gating(e *jsonpos.Value) Gating {
	var g Gating
	if r := e.Get("triggerRule"); r != nil && r.Kind == jsonpos.String {
		g.TriggerRule = r.Str
	}
	if c := e.Get("condition"); c != nil && c.Kind != jsonpos.Null {
		g.Condition = c.Interface()
		g.When = conditionText(c)
	}
	return g
}

// maxWhen bounds a condition in words: a drawing's edge label.
const maxWhen = 60

// conditionText says a condition in words: "approved", "not approved",
// `branch = "then"`, `branches contains "low"`; one of another shape
// (a type this reader does not know) as its compact JSON.
func conditionText(c *jsonpos.Value) string {
	s := conditionWords(c)
	if rs := []rune(s); len(rs) > maxWhen {
		s = string(rs[:maxWhen-1]) + "…"
	}
	return s
}

// comparisonWords are the words of the conditions that compare left with
// right.
var comparisonWords = map[string]string{"equals": " = ", "notEquals": " ≠ ", "contains": " contains "}

// conditionWords is conditionText before it is shortened.
func conditionWords(c *jsonpos.Value) string {
	left, right := c.Get("left"), c.Get("right")
	if left == nil || left.Kind != jsonpos.String || left.Str == "" {
		return compactJSON(c)
	}
	l, t := left.Str, c.Get("type").String()
	switch {
	case t == "truthy" && right == nil:
		return l
	case t == "falsy" && right == nil:
		return "not " + l
	}
	if op, ok := comparisonWords[t]; ok && right != nil {
		r := ""
		if b, err := json.Marshal(right.Interface()); err == nil {
			r = string(b)
		}
		return l + op + r
	}
	return compactJSON(c)
}

func compactJSON(v *jsonpos.Value) string {
	b, err := json.Marshal(v.Interface())
	if err != nil {
		return "?"
	}
	return string(b)
}
