package graphrun

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/chain"
	"github.com/wop-cli/wop/internal/lint"
	"github.com/wop-cli/wop/internal/tarball"
)

// propertyCatalog is a folder of one node pack whose types have closed and
// open config and input schemas, a gate and a side effect: what the
// generated chains wire together and set keys of.
var propertyCatalog = map[string]string{
	"vendor.acme.tools/pack.json": `{"name": "vendor.acme.tools", "version": "1.0.0", "description": "Tools.", "license": "MIT",
  "engines": {"openwop": ">=1.0.0 <2.0.0"}, "runtime": {"language": "javascript", "entry": "index.mjs", "format": "esm"}, "nodes": [
  {"typeId": "vendor.acme.tools.sum", "version": "1.0.0", "role": "pure", "inputSchemaRef": "s/open.json", "outputSchemaRef": "s/sum.out.json", "configSchemaRef": "s/sum.config.json"},
  {"typeId": "vendor.acme.tools.approve", "version": "1.0.0", "role": "gate", "outputSchemaRef": "s/approve.out.json"},
  {"typeId": "vendor.acme.tools.post", "version": "1.0.0", "role": "side-effect", "capabilities": ["side-effectful"], "inputSchemaRef": "s/post.in.json", "outputSchemaRef": "s/open.json", "configSchemaRef": "s/post.config.json"}
]}`,
	"vendor.acme.tools/index.mjs":          "export const nodes = {};\n",
	"vendor.acme.tools/s/open.json":        `{"type": "object"}`,
	"vendor.acme.tools/s/sum.out.json":     `{"type": "object", "additionalProperties": false, "properties": {"result": {"type": "number"}, "count": {"type": "integer"}}}`,
	"vendor.acme.tools/s/sum.config.json":  `{"type": "object", "additionalProperties": false, "properties": {"mode": {"enum": ["fast", "exact"]}, "limit": {"type": "integer"}}}`,
	"vendor.acme.tools/s/approve.out.json": `{"type": "object", "additionalProperties": false, "properties": {"approved": {"type": "boolean"}}}`,
	"vendor.acme.tools/s/post.in.json":     `{"type": "object", "additionalProperties": false, "required": ["title", "text"], "properties": {"title": {"type": "string"}, "text": {"type": "string"}}}`,
	"vendor.acme.tools/s/post.config.json": `{"type": "object", "properties": {"channel": {"type": "string"}}}`,
}

// graphGen makes random chain packs from small pools, so that ids collide,
// edges dangle, ports miss, cycles close, titles cross chains, config
// values misfit, keys go undeclared and local typeIds appear.
type graphGen struct{ r *rand.Rand }

func (g graphGen) pick(pool ...string) string { return pool[g.r.IntN(len(pool))] }

func (g graphGen) pack() map[string]any {
	var chains []any
	for i := range 1 + g.r.IntN(3) {
		chains = append(chains, g.chain(i))
	}
	return map[string]any{"name": "vendor.acme.flows", "version": "1.0.0", "kind": "workflow-chain", "description": "Generated.",
		"license": "MIT", "engines": map[string]any{"openwop": ">=1.0.0 <2.0.0"}, "chains": chains}
}

func (g graphGen) chain(i int) map[string]any {
	c := map[string]any{"chainId": fmt.Sprintf("vendor.acme.flows.c%d", i), "version": "1.0.0", "label": g.pick("Alpha", "Beta")}
	if g.r.IntN(2) == 0 {
		c["parameters"] = map[string]any{"type": "object", "properties": map[string]any{"topic": map[string]any{"type": "string"}}}
	}
	ids := []string{"a", "b", "c", "d"}
	var nodes, edges []any
	for range g.r.IntN(6) {
		n := map[string]any{"id": g.pick(ids...), "typeId": g.pick("vendor.acme.tools.sum", "vendor.acme.tools.approve", "vendor.acme.tools.post",
			"vendor.acme.nope", "core.trigger.event", "local.thing")}
		if g.r.IntN(2) == 0 {
			n["inputs"] = g.values()
		}
		if g.r.IntN(2) == 0 {
			n["config"] = g.values()
		}
		nodes = append(nodes, n)
	}
	for range g.r.IntN(7) {
		e := map[string]any{"from": g.end(ids), "to": g.end(ids)}
		if g.r.IntN(3) == 0 {
			e["condition"] = map[string]any{"type": "truthy", "left": "approved"}
		}
		edges = append(edges, e)
	}
	c["dag"] = map[string]any{"nodes": nodes, "edges": edges}
	return c
}

func (g graphGen) end(ids []string) string {
	id := g.pick(append(ids, "ghost")...)
	if g.r.IntN(2) == 0 {
		return id
	}
	return id + "." + g.pick("text", "title", "result", "count", "approved", "nope")
}

func (g graphGen) values() map[string]any {
	out := map[string]any{}
	for range g.r.IntN(3) {
		switch g.r.IntN(6) {
		case 0:
			out["title"] = g.pick("Alpha", "Beta", "Other")
		case 1:
			out["text"] = g.pick("{{params.topic}}", "{{params.nope}}")
		case 2:
			out["mode"] = g.pick("fast", "slow")
		case 3:
			out["limit"] = g.pick("ten", "{{params.topic}}")
		case 4:
			out["channel"] = "#general"
		default:
			out["stray"] = true
		}
	}
	return out
}

// locatedFinding is a finding with the file it is in.
// TestDrawingCarriesEveryChainFinding: over generated chain packs, the
// findings `wop pack graph --format json` draws are exactly the findings
// `wop pack lint` places in a chain (its dag, nodes, edges or the chain
// entry): every chain rule, and the node rules lint reports there
// (chain-config-invalid, chain-key-undeclared, typeid-local-namespace).
func TestDrawingCarriesEveryChainFinding(t *testing.T) {
	dir := t.TempDir()
	for name, data := range propertyCatalog {
		writeFile(t, filepath.Join(dir, "cat", name), data)
	}
	rules := "rules:\n  chain-side-effect-ungated: warning\n"
	writeFile(t, filepath.Join(dir, ".wop.yaml"), rules)
	g := graphGen{rand.New(rand.NewPCG(38, 2026))}
	seen := map[string]int{}
	env := testEnv(t, nil)
	for i := range 60 {
		raw, err := json.MarshalIndent(g.pack(), "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		packDir := filepath.Join(dir, fmt.Sprintf("p%d", i))
		writeFile(t, filepath.Join(packDir, "pack.json"), string(raw))
		catalogs := []string{filepath.Join(dir, "cat")}
		out, err := Run(t.Context(), env, Options{Paths: []string{packDir}, Catalogs: catalogs, Format: "json"})
		if err != nil {
			t.Fatal(err)
		}
		drawn := chartFindings(t, out)
		var linted []finding
		for _, d := range lintFindings(t, env, []string{packDir}, catalogs) {
			if strings.HasSuffix(d.File, "/pack.json") && strings.HasPrefix(d.Pointer, "/chains/") {
				linted = append(linted, finding{d.Rule, d.Pointer, d.Message})
				seen[d.Rule]++
			}
		}
		sortFindings(drawn)
		sortFindings(linted)
		if !slices.Equal(drawn, linted) {
			t.Fatalf("pack %d: the drawing and lint disagree\ndrawn:\n  %v\nlint:\n  %v\npack.json:\n%s", i, drawn, linted, raw)
		}
	}
	t.Logf("findings seen: %v", seen)
	for _, id := range append(chain.Rules(), "chain-config-invalid", "chain-key-undeclared", "typeid-local-namespace") {
		if seen[id] == 0 {
			t.Errorf("no generated pack has a %s finding: the generator does not exercise it (seen: %v)", id, seen)
		}
	}
}

func writeFile(t *testing.T, name, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestAnalyzeBufferCarriesLint: the editor's drawing of an unsaved buffer
// carries what lint says of the buffer, not of the file on disk.
func TestAnalyzeBufferCarriesLint(t *testing.T) {
	dir := t.TempDir()
	disk := `{"name": "vendor.acme.flows", "version": "1.0.0", "kind": "workflow-chain", "description": "d", "license": "MIT",
  "engines": {"openwop": ">=1.0.0 <2.0.0"}, "chains": [{"chainId": "c", "version": "1.0.0", "label": "C", "dag": {"nodes": [{"id": "a", "typeId": "core.noop"}], "edges": []}}]}`
	writeFile(t, filepath.Join(dir, "pack.json"), disk)
	buffer := strings.Replace(disk, `"core.noop"`, `"local.thing"`, 1)
	an, _, err := AnalyzeBuffer([]byte(buffer), filepath.Join(dir, "pack.json"), dir, lint.Options{}, tarball.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	var rules []string
	for _, f := range an.DAGs[0].Findings {
		rules = append(rules, f.Rule+" "+f.Node)
	}
	if !slices.Contains(rules, "typeid-local-namespace a") {
		t.Errorf("findings %q, want lint's typeid-local-namespace on node a of the buffer", rules)
	}
}
