package lint

import (
	"path/filepath"
	"testing"

	"github.com/wop-cli/wop/internal/catalog"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/tarball"
	"github.com/wop-cli/wop/internal/testutil/filetree"
)

// The analysis itself is internal/jsfacts's, tested there; these tests hold
// how lint shares it.

// TestPackFactsOnce: the rules that read the pack's executor share one
// analysis per pass.
func TestPackFactsOnce(t *testing.T) {
	dir := t.TempDir()
	filetree.Write(t, dir, map[string]string{
		"pack.json": `{"name":"community.acme.x","version":"1.0.0","runtime":{"language":"javascript","entry":"index.mjs"}}`,
		"index.mjs": "function helper(ctx) { return ctx.db; }\nexport const nodes = {};\n",
	})
	pk, err := pack.Load(dir, tarball.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	p := &Pass{Pack: pk, files: map[string]fileRead{}, json: map[string]*jsonFile{}}
	p.Manifest, _, _ = p.JSON(pack.ManifestName)
	a := packFacts(p)
	if b := packFacts(p); a != b {
		t.Error("the executor was analysed again for the second rule")
	}
	if !a.Parsed() || !a.Exports("nodes") {
		t.Errorf("the executor was not analysed: parsed %v", a.Parsed())
	}
}

// TestChainFillsReadTheOwnExecutorOnce: in a catalog that holds the pack
// being linted (a registry checkout), the chain analysis asks about the
// pack's own node types through the pass's one analysis of its executor,
// not a second one of the catalog's copy.
func TestChainFillsReadTheOwnExecutorOnce(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "community.acme.x")
	filetree.Write(t, dir, map[string]string{
		"pack.json": `{"name":"community.acme.x","version":"1.0.0","runtime":{"language":"javascript","entry":"index.mjs"},
 "nodes":[{"typeId":"community.acme.x.up","version":"1.0.0"}]}`,
		"index.mjs": "export const nodes = { 'community.acme.x.up': { async execute(ctx) { return { t: ctx.inputs.t ?? 'untitled' }; } } };\n",
	})
	c, err := catalog.Open(t.Context(), root, catalog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	pk, err := pack.Load(dir, tarball.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	p := &Pass{Pack: pk, Catalog: c, files: map[string]fileRead{}, json: map[string]*jsonFile{}}
	p.Manifest, _, _ = p.JSON(pack.ManifestName)
	n, ok := c.NodeType("community.acme.x.up")
	if !ok {
		t.Fatal("the catalog lacks the pack's node type")
	}
	if !chainOptions(p).Fills(n, "t") {
		t.Error("the executor's fallback for t was not seen")
	}
	if p.executor == nil || p.executor.own == nil {
		t.Error("the pack's own node type was read from a second analysis of its executor, not the pass's")
	}
}

// TestRuntimeEntryExportsReadsTheParse: the exports are the parser's, so a
// comment or a string that spells an export is none, and an entry the
// parser refuses gets no claim rather than a guess from its text.
func TestRuntimeEntryExportsReadsTheParse(t *testing.T) {
	manifest := `{"name": "community.acme.demo", "version": "1.0.0", "description": "Demo.", "license": "Apache-2.0",
 "engines": {"openwop": ">=1.1.0 <2.0.0"}, "runtime": {"language": "javascript", "entry": "index.mjs", "format": "esm"},
 "nodes": [{"typeId": "community.acme.demo.up", "version": "1.0.0", "role": "pure", "outputSchemaRef": "o.json"}]}`
	for _, tc := range []struct {
		name, src string
		fires     bool
	}{
		{"named in an export list", "const m = {};\nexport { m as nodes };\n", false},
		{"CommonJS", "exports.nodes = {};\n", false},
		{"only in a comment", "/*\nexport const nodes = {};\n*/\nexport default {};\n", true},
		{"only in a string", "const s = `\nexport const nodes = {}\n`;\nexport default { s };\n", true},
		{"does not parse", "export default {\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := lintExample(t, []ExampleFile{{Name: "pack.json", Data: manifest}, {Name: "index.mjs", Data: tc.src}, {Name: "o.json", Data: `{"type": "object"}`}}, tarball.DefaultLimits, "runtime-entry-exports")
			if (len(got) > 0) != tc.fires {
				t.Errorf("findings %v, want fires=%v", got, tc.fires)
			}
		})
	}
}
