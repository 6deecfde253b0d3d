package chain

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/wop-cli/wop/internal/catalog"
)

// ancestorGated is the plain definition gated computes in one walk: some
// ancestor of id (through edges, dangling ends included) is a gate.
func ancestorGated(d *DAG, id string) bool {
	parents := map[string][]string{}
	for _, e := range d.Edges {
		parents[e.To] = append(parents[e.To], e.From)
	}
	seen := map[string]bool{}
	stack := append([]string(nil), parents[id]...)
	for len(stack) > 0 {
		cur := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[cur] {
			continue
		}
		seen[cur] = true
		if n := d.Node(cur); n != nil && isGate(n) {
			return true
		}
		stack = append(stack, parents[cur]...)
	}
	return false
}

// TestGatedIsAncestorWalk: over random graphs (cycles, duplicate ids,
// dangling ends), the one-walk gated set is the per-node ancestor walk.
func TestGatedIsAncestorWalk(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	roles := []string{"gate", "side-effect", "pure", "human-input"}
	for i := range 500 {
		d := &DAG{}
		for range r.IntN(8) {
			d.Nodes = append(d.Nodes, Node{ID: fmt.Sprint(r.IntN(6)), Type: &catalog.NodeType{Role: roles[r.IntN(len(roles))]}})
		}
		for range r.IntN(12) {
			d.Edges = append(d.Edges, Edge{From: fmt.Sprint(r.IntN(7)), To: fmt.Sprint(r.IntN(7))})
		}
		gated := (&analyzer{d: d}).gated()
		for id := range 7 {
			if got, want := gated[fmt.Sprint(id)], ancestorGated(d, fmt.Sprint(id)); got != want {
				t.Fatalf("graph %d, node %d: gated %v, ancestor walk %v: %+v", i, id, got, want, d)
			}
		}
	}
}
