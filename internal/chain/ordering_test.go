package chain

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestOrderingOnlyEdges: an edge into "_order" only orders its target, and
// the analysis says so (drawings read orderingOnly); an edge into a
// declared input, or into an undeclared port of an open schema, does not.
func TestOrderingOnlyEdges(t *testing.T) {
	const m = `{"chains": [{"chainId": "c", "dag": {"nodes": [
  {"id": "count", "typeId": "acme.tools.count"},
  {"id": "post", "typeId": "acme.tools.post"}],
  "edges": [{"from": "count.n", "to": "post._order"}, {"from": "count.n", "to": "post.title"}, {"from": "count.n", "to": "post.decision"}]}}]}`
	d := analyzeWith(t, m, Options{})
	for i, want := range []bool{true, false, false} {
		if got := d.Edges[i].OrderingOnly; got != want {
			t.Errorf("edge to %s.%s: OrderingOnly = %v, want %v", d.Edges[i].To, d.Edges[i].ToPort, got, want)
		}
	}
	for _, f := range d.Findings {
		if f.Rule == RuleEdgeDangling {
			t.Errorf("an ordering edge is reported dangling: %s", f.Message)
		}
	}
	out, err := json.Marshal(d.Edges[0])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), `"orderingOnly":true`) {
		t.Errorf("the analysis JSON does not mark it: %s", out)
	}
}

// TestOrderingOnlyClosedSchema: into a closed input schema, a port it does
// not declare orders only; not when the node sets the key itself (the
// chain expects a value there), when it is a near spelling of a declared
// input (a typo, dangling), or when the schema declares it, "_" or not.
func TestOrderingOnlyClosedSchema(t *testing.T) {
	const m = `{"chains": [{"chainId": "c", "dag": {"nodes": [
  {"id": "count", "typeId": "acme.tools.count"},
  {"id": "post", "typeId": "acme.tools.closed"},
  {"id": "set", "typeId": "acme.tools.closed", "inputs": {"decision": "yes"}}],
  "edges": [{"from": "count.n", "to": "post.decision"}, {"from": "count.n", "to": "set.decision"},
    {"from": "count.n", "to": "post.titel"}, {"from": "count.n", "to": "post._meta"}, {"from": "count.n", "to": "post.title"}]}}]}`
	d := analyzeWith(t, m, Options{})
	for i, want := range []bool{true, false, false, false, false} {
		if got := d.Edges[i].OrderingOnly; got != want {
			t.Errorf("edge to %s.%s: OrderingOnly = %v, want %v", d.Edges[i].To, d.Edges[i].ToPort, got, want)
		}
	}
}
