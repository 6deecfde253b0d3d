package lint

import (
	"testing"

	"github.com/wop-cli/wop/internal/jsonpos"
)

// TestExecutorFills: the chain analysis counts an input as filled by its
// node only where the executor puts a usable value in its place; a
// hollow fallback ([] or ”) or a failure fills nothing.
func TestExecutorFills(t *testing.T) {
	c := exampleCatalog(t, []ExampleFile{
		{"community.acme.tools/pack.json", `{"name": "community.acme.tools", "version": "1.0.0", "kind": "node-pack", "runtime": {"language": "javascript", "entry": "index.mjs", "format": "esm"}, "nodes": [{"typeId": "community.acme.tools.x", "role": "pure"}]}`},
		{"community.acme.tools/index.mjs", "export const nodes = { 'community.acme.tools.x': async (ctx) => {\n" +
			" const topic = ctx.inputs.topic ?? 'cats';\n" +
			" const items = ctx.inputs.items ?? [];\n" +
			" if (!ctx.inputs.id) throw new Error('id');\n" +
			" return { topic, items }; } };\n"},
	})
	nt, ok := c.NodeType("community.acme.tools.x")
	if !ok {
		t.Fatal("no node type in the catalog")
	}
	root, err := jsonpos.Parse([]byte(`{"name": "community.acme.chains"}`))
	if err != nil {
		t.Fatal(err)
	}
	fills := ChainOptions(root.Root, c, "").Fills
	for input, want := range map[string]bool{"topic": true, "items": false, "id": false, "other": false} {
		if got := fills(nt, input); got != want {
			t.Errorf("fills %q = %v, want %v", input, got, want)
		}
	}
}
