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
