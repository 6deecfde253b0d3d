package lint

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/chain"
	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/spec"
	"github.com/wop-cli/wop/internal/tarball"
)

// chainPropertyCatalog is a catalog of node types with closed and open,
// typed and enum schemas, a gate, a side effect and a documented fallback:
// what the generated chains wire together.
var chainPropertyCatalog = []ExampleFile{
	{Name: "vendor.acme.tools/pack.json", Data: `{"name": "vendor.acme.tools", "version": "1.0.0", "nodes": [
  {"typeId": "vendor.acme.tools.sum", "version": "1.0.0", "role": "pure", "inputSchemaRef": "s/open.json", "outputSchemaRef": "s/sum.out.json"},
  {"typeId": "vendor.acme.tools.approve", "version": "1.0.0", "role": "gate", "outputSchemaRef": "s/approve.out.json"},
  {"typeId": "vendor.acme.tools.post", "version": "1.0.0", "role": "side-effect", "capabilities": ["side-effectful"], "inputSchemaRef": "s/post.in.json", "outputSchemaRef": "s/open.json"},
  {"typeId": "vendor.acme.tools.chat", "version": "1.0.0", "inputSchemaRef": "s/chat.in.json", "outputSchemaRef": "s/chat.out.json"}
]}`},
	{Name: "vendor.acme.tools/s/open.json", Data: `{"type": "object"}`},
	{Name: "vendor.acme.tools/s/sum.out.json", Data: `{"type": "object", "additionalProperties": false, "properties": {"result": {"type": ["number", "null"]}, "count": {"type": "integer"}}}`},
	{Name: "vendor.acme.tools/s/approve.out.json", Data: `{"type": "object", "additionalProperties": false, "properties": {"decision": {"type": "string", "enum": ["accept", "reject"]}, "approved": {"type": "boolean"}}}`},
	{Name: "vendor.acme.tools/s/post.in.json", Data: `{"type": "object", "additionalProperties": false, "required": ["title", "text", "count"], "properties": {
  "title": {"type": "string"}, "text": {"type": "string"}, "count": {"type": "integer"}, "decision": {"enum": ["approve", "deny"]},
  "approval": {"type": "object", "required": ["approved", "reviewer"]}, "sound": {"type": "string", "default": "ping"}}}`},
	{Name: "vendor.acme.tools/s/chat.in.json", Data: `{"type": "object", "required": ["messages"], "properties": {"messages": {"type": "array", "description": "Optional when the input carries text."}, "text": {"type": "string"}}}`},
	{Name: "vendor.acme.tools/s/chat.out.json", Data: `{"type": "object", "additionalProperties": false, "properties": {"output": {"type": "object", "additionalProperties": false, "properties": {"text": {"type": "integer"}}}}}`},
}

// chainGen makes random chains from small pools, so that ids collide,
// edges dangle, ports miss, cycles close and titles cross chains.
type chainGen struct{ r *rand.Rand }

func (g chainGen) pick(pool ...string) string { return pool[g.r.IntN(len(pool))] }

func (g chainGen) pack() map[string]any {
	var chains []any
	for i := range 1 + g.r.IntN(3) {
		chains = append(chains, g.chain(i))
	}
	return map[string]any{"name": "vendor.acme.flows", "version": "1.0.0", "kind": "workflow-chain", "description": "Generated.",
		"license": "MIT", "engines": map[string]any{"openwop": ">=1.0.0 <2.0.0"}, "nodes": []any{map[string]any{"typeId": "vendor.acme.flows.own"}}, "chains": chains}
}

var genLabels = []string{"Alpha", "Beta", "Gamma"}

func (g chainGen) chain(i int) map[string]any {
	c := map[string]any{"chainId": fmt.Sprintf("vendor.acme.flows.c%d", i), "version": "1.0.0", "label": g.pick(genLabels...)}
	switch g.r.IntN(3) {
	case 1:
		c["parameters"] = map[string]any{"type": "object", "additionalProperties": false, "properties": map[string]any{"topic": map[string]any{"type": "string"}, "title": map[string]any{"type": "string"}}}
	case 2:
		c["parameters"] = map[string]any{"type": "object", "properties": map[string]any{"text": map[string]any{"type": "string"}}}
	}
	ids := []string{"a", "b", "c", "d", "a.b"}
	var nodes, edges []any
	for range g.r.IntN(6) {
		n := map[string]any{"id": g.pick(ids...), "typeId": g.pick("vendor.acme.tools.sum", "vendor.acme.tools.approve", "vendor.acme.tools.post",
			"vendor.acme.tools.chat", "vendor.acme.flows.own", "vendor.acme.nope", "core.trigger.event", "local.thing", "vendor.acme.humanReview")}
		if g.r.IntN(2) == 0 {
			n["inputs"] = g.values()
		}
		if g.r.IntN(3) == 0 {
			n["config"] = g.values()
		}
		if g.r.IntN(3) == 0 {
			n["position"] = map[string]any{"x": g.r.IntN(500), "y": g.r.IntN(500)}
		}
		nodes = append(nodes, n)
	}
	for range g.r.IntN(8) {
		edges = append(edges, map[string]any{"from": g.end(ids), "to": g.end(ids)})
	}
	c["dag"] = map[string]any{"nodes": nodes, "edges": edges}
	return c
}

func (g chainGen) end(ids []string) string {
	id := g.pick(append(ids, "ghost")...)
	if g.r.IntN(2) == 0 {
		return id
	}
	return id + "." + g.pick("text", "count", "result", "decision", "approved", "approval", "messages", "nope", "output.text")
}

func (g chainGen) values() map[string]any {
	out := map[string]any{}
	for range g.r.IntN(3) {
		switch g.r.IntN(4) {
		case 0:
			out["title"] = g.pick(append(genLabels, "Other")...)
		case 1:
			out["text"] = g.pick("{{params.topic}}", "{{ params.nope }}", "hi {{params.text}}")
		case 2:
			out["count"] = g.r.IntN(9)
		default:
			out["messages"] = []any{"{{params.title}}"}
		}
	}
	return out
}

// TestChainFindingsAreTheAnalysis: over generated chains, lint's chain
// findings are exactly the chain analysis' findings (rule, pointer and
// message), so the graph, which draws the analysis, and lint never
// disagree.
func TestChainFindingsAreTheAnalysis(t *testing.T) {
	cat := exampleCatalog(t, chainPropertyCatalog)
	rules := chain.Rules()
	opt := Options{Catalog: cat, Severities: map[string]diag.Severity{}}
	for _, id := range rules {
		opt.Severities[id] = Lookup(id).Severity // the opt-in ones too
	}
	g := chainGen{rand.New(rand.NewPCG(30, 2026))}
	seen := map[string]int{}
	for i := range 150 {
		raw, err := json.MarshalIndent(g.pack(), "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, d := range lintExampleWith(t, []ExampleFile{{Name: "pack.json", Data: string(raw)}}, tarball.DefaultLimits, "", opt) {
			if slices.Contains(rules, d.Rule) {
				got = append(got, d.Rule+" "+d.Pointer+" "+d.Message)
			}
		}
		doc, err := jsonpos.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, f := range chain.Analyze(doc.Root, ChainOptions(doc.Root, cat, spec.V1)).Findings() {
			want = append(want, f.Rule+" "+f.Pointer+" "+f.Message)
			seen[f.Rule]++
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(slices.Compact(got), slices.Compact(want)) {
			t.Fatalf("chain %d: lint and the analysis disagree\nlint:\n  %s\nanalysis:\n  %s\npack.json:\n%s", i, strings.Join(got, "\n  "), strings.Join(want, "\n  "), raw)
		}
	}
	for _, id := range rules {
		if seen[id] == 0 {
			t.Errorf("no generated chain has a %s finding: the generator does not exercise it", id)
		}
	}
}
