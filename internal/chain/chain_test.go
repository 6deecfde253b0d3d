package chain

import (
	"slices"
	"testing"

	"github.com/wop-cli/wop/internal/jsonpos"
)

const testManifest = `{"chains": [{"chainId": "acme.main", "label": "Main",
  "parameters": {"type": "object", "required": ["topic"], "properties": {"topic": {"type": "string"}, "mode": {"default": "x"}}},
  "dag": {
   "nodes": [
    {"id": "start", "typeId": "core.trigger.event", "position": {"x": 0, "y": 10}},
    {"id": "ask", "typeId": "acme.tools.ask", "name": "Ask", "inputs": {"q": "{{params.topic}}"}},
    {"id": "ok", "typeId": "core.approvalGate"},
    {"id": "lone", "typeId": "acme.tools.x"}
   ],
   "edges": [{"from": "start", "to": "ask"}, {"from": "ask.text", "to": "ok.body"}, {"from": "ok", "to": "ask"}, {"from": "ghost", "to": "ok"}]}}]}`

// TestAnalyzeWithoutCatalog: what a chain alone tells, read once.
func TestAnalyzeWithoutCatalog(t *testing.T) {
	doc, err := jsonpos.Parse([]byte(testManifest))
	if err != nil {
		t.Fatal(err)
	}
	a := Analyze(doc.Root, Options{})
	if len(a.DAGs) != 1 {
		t.Fatalf("%d DAGs, want 1", len(a.DAGs))
	}
	d := a.DAGs[0]
	if d.ChainID != "acme.main" || d.Title != "Main" || d.Pointer != "/chains/0/dag" || d.ParamsPointer != "/chains/0/parameters" {
		t.Errorf("DAG = %q %q %q %q", d.ChainID, d.Title, d.Pointer, d.ParamsPointer)
	}
	if p := d.Node("start").Position; p == nil || p.X != 0 || p.Y != 10 {
		t.Errorf("start position = %v", p)
	}
	if r := d.Node("start").Role; r != RoleTrigger {
		t.Errorf("start role = %q", r)
	}
	if r := d.Node("ok").Role; r != RoleGate {
		t.Errorf("ok role = %q", r)
	}
	if d.Node("ask").Name != "Ask" {
		t.Errorf("ask name = %q", d.Node("ask").Name)
	}
	wantBinding := func(node string, b Binding) {
		t.Helper()
		if !slices.Contains(d.Node(node).Inputs, b) {
			t.Errorf("%s inputs %+v lack %+v", node, d.Node(node).Inputs, b)
		}
	}
	wantBinding("ask", Binding{Input: "q", Source: SourceInputs, Pointer: "/chains/0/dag/nodes/1/inputs/q"})
	wantBinding("ok", Binding{Input: "body", Source: SourceEdge, From: "ask", Port: "text", Pointer: "/chains/0/dag/edges/1"})
	if got := d.Params; len(got) != 2 || got[0].Name != "topic" || !got[0].Required || !slices.Equal(got[0].Feeds, []string{"ask"}) || !got[1].Default {
		t.Errorf("params = %+v", got)
	}
	if !d.Edges[3].Dangling || d.Edges[0].Dangling {
		t.Errorf("dangling = %v, %v", d.Edges[3].Dangling, d.Edges[0].Dangling)
	}
	var rules []string
	for _, f := range a.Findings() {
		rules = append(rules, f.Rule+" "+f.Pointer)
	}
	want := []string{
		RuleEdgeDangling + " /chains/0/dag/edges/3/from",
		RuleCycle + " /chains/0/dag/edges/2",
		RuleNodeUnreachable + " /chains/0/dag/nodes/3",
	}
	if !slices.Equal(rules, want) {
		t.Errorf("findings = %q, want %q", rules, want)
	}
	if _, n := a.NodeAt("/chains/0/dag/nodes/1/inputs/q"); n == nil || n.ID != "ask" {
		t.Errorf("NodeAt = %v", n)
	}
}

// TestAnalyzeNil: no manifest, no DAGs, no panic.
func TestAnalyzeNil(t *testing.T) {
	if a := Analyze(nil, Options{}); len(a.DAGs) != 0 || len(a.Findings()) != 0 {
		t.Errorf("Analyze(nil) = %+v", a)
	}
}
