package graphrun

import (
	"testing"

	"github.com/wop-cli/wop/internal/chain"
	"github.com/wop-cli/wop/internal/diag"
)

// TestAttachLint: a lint finding of the manifest inside a chain is placed
// on the node or edge that holds it, or beside the chain; one in another
// file, outside every chain, or of a rule the analysis reports itself is
// not placed.
func TestAttachLint(t *testing.T) {
	d := &chain.DAG{Pointer: "/chains/1/dag", Nodes: []chain.Node{{ID: "a", Pointer: "/chains/1/dag/nodes/0"}, {ID: "b", Pointer: "/chains/1/dag/nodes/1"}}}
	an := &chain.Analysis{DAGs: []*chain.DAG{d}}
	const file = "p/pack.json"
	ds := []diag.Diagnostic{
		{Rule: "on-node", File: file, Pointer: "/chains/1/dag/nodes/1/config/x"},
		{Rule: "on-edge", File: file, Pointer: "/chains/1/dag/edges/0/to"},
		{Rule: "on-chain", File: file, Pointer: "/chains/1/label"},
		{Rule: "other-file", File: "p/schemas/x.json", Pointer: "/chains/1/dag/nodes/0"},
		{Rule: "other-chain", File: file, Pointer: "/chains/0/dag/nodes/0"},
		{Rule: chain.RuleCycle, File: file, Pointer: "/chains/1/dag"},
	}
	attachLint(an, ds, file)
	want := []chain.Finding{
		{Rule: "on-node", Pointer: ds[0].Pointer, Node: "b"},
		{Rule: "on-edge", Pointer: ds[1].Pointer, Edge: "/chains/1/dag/edges/0"},
		{Rule: "on-chain", Pointer: ds[2].Pointer},
	}
	if len(d.Findings) != len(want) {
		t.Fatalf("placed %+v, want %+v", d.Findings, want)
	}
	for i, f := range d.Findings {
		if f.Rule != want[i].Rule || f.Node != want[i].Node || f.Edge != want[i].Edge {
			t.Errorf("finding %d = %+v, want %+v", i, f, want[i])
		}
	}
}

// TestMatch: a chain is matched in the previous release by its chainId,
// or, with none, by its pointer among the chains without one.
func TestMatch(t *testing.T) {
	byID := &chain.DAG{ChainID: "a", Pointer: "/chains/0/dag"}
	byPtr := &chain.DAG{Pointer: "/flows/0/dag"}
	prev := &chain.Analysis{DAGs: []*chain.DAG{byID, byPtr}}
	for _, tc := range []struct {
		d    *chain.DAG
		want *chain.DAG
	}{
		{&chain.DAG{ChainID: "a", Pointer: "/chains/3/dag"}, byID},
		{&chain.DAG{Pointer: "/flows/0/dag"}, byPtr},
		{&chain.DAG{Pointer: "/chains/0/dag"}, nil}, // the chain there has an id
		{&chain.DAG{ChainID: "b", Pointer: "/flows/0/dag"}, nil},
	} {
		if got := Match(prev, tc.d); got != tc.want {
			t.Errorf("Match(%q at %s) = %+v, want %+v", tc.d.ChainID, tc.d.Pointer, got, tc.want)
		}
	}
	if Match(nil, byID) != nil {
		t.Error("a chain matched in no previous release")
	}
}
