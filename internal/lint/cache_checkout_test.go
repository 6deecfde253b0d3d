package lint

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/wop-cli/wop/internal/catalog"
	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/lintcache"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/tarball"
)

// TestCachedOnePackInACheckoutSeesEveryChange: a cached lint of one chain
// pack in a registry checkout keys the checkout by its manifests and the
// files of the packs the chain uses, not by every pack's files; after each
// change below (a used pack's schema edited, a pack added, removed, a
// manifest edited) the cached run must give exactly what an uncached run
// with a freshly read catalog gives. Lazy: the checkout opened as a
// run's own loader opens it (its facts read only on a miss, StateFor's
// answers kept by the facts' key), which must see the same changes and,
// on a hit, read no facts at all.
func TestCachedOnePackInACheckoutSeesEveryChange(t *testing.T) {
	for _, lazy := range []bool{false, true} {
		t.Run(map[bool]string{false: "eager", true: "lazy"}[lazy], func(t *testing.T) {
			testCachedOnePackInACheckout(t, lazy)
		})
	}
}

func testCachedOnePackInACheckout(t *testing.T, lazy bool) {
	root := t.TempDir()
	touch := 0
	write := func(name, data string) {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		touch++ // a later mtime each time, for coarse file systems
		later := time.Now().Add(time.Duration(touch) * time.Minute)
		if err := os.Chtimes(p, later, later); err != nil {
			t.Fatal(err)
		}
	}
	write(catalog.DiscoveryPath, `{"name": "test registry"}`)
	write("packs/community.acme.flows/pack.json", `{"name": "community.acme.flows", "version": "1.0.0", "kind": "workflow-chain", "engines": {"openwop": ">=1.0.0 <2.0.0"},
	  "chains": [{"chainId": "acme.flow", "version": "1.0.0", "label": "F", "description": "F.", "parameters": {"type": "object"},
	    "dag": {"nodes": [{"id": "a", "typeId": "community.acme.tools.send", "config": {"channel": "fax"}}, {"id": "b", "typeId": "community.acme.more.fax"}],
	      "edges": [{"from": "a", "to": "b"}]}}]}`)
	write("packs/community.acme.tools/pack.json", `{"name": "community.acme.tools", "version": "1.0.0", "nodes": [{"typeId": "community.acme.tools.send", "configSchemaRef": "schemas/c.json"}]}`)
	write("packs/community.acme.tools/schemas/c.json", `{"$id": "https://packs.example/community.acme.tools/1.0.0/c.json", "type": "object",
	  "properties": {"channel": {"$ref": "https://packs.example/community.acme.shared/1.0.0/channel.json"}}}`)
	write("packs/community.acme.shared/pack.json", `{"name": "community.acme.shared", "version": "1.0.0"}`)
	write("packs/community.acme.shared/channel.json", `{"$id": "https://packs.example/community.acme.shared/1.0.0/channel.json", "enum": ["email"]}`)
	write("packs/community.acme.other/pack.json", `{"name": "community.acme.other", "version": "1.0.0", "nodes": [{"typeId": "community.acme.other.x", "configSchemaRef": "x.json"}]}`)
	write("packs/community.acme.other/x.json", `{"type": "object"}`)

	cacheDir := t.TempDir()
	var last *catalog.Catalog // the cached run's
	lint := func(cached bool) []diag.Diagnostic {
		t.Helper()
		o := catalog.Options{}
		opt := Options{CacheSalt: "v1"}
		if cached {
			o.CacheDir, opt.Cache, o.Lazy = cacheDir, lintcache.Cache{Dir: cacheDir}, lazy
		}
		c, err := catalog.Open(t.Context(), root, o)
		if err != nil {
			t.Fatal(err)
		}
		opt.Catalog = c
		if cached {
			last = c
		}
		r := RunAll([]Job{{Path: filepath.Join(root, "packs", "community.acme.flows"), Opt: opt}}, func(j Job) (*pack.Pack, error) {
			return pack.Load(j.Path, tarball.DefaultLimits)
		})[0]
		if r.Err != nil {
			t.Fatal(r.Err)
		}
		return r.Diags
	}
	entries := func() int {
		es, _ := filepath.Glob(filepath.Join(cacheDir, "lint", "*.json"))
		return len(es)
	}
	check := func(step string, want ...string) {
		t.Helper()
		cold, warm := lint(false), lint(true)
		if !slices.Equal(cold, warm) {
			t.Errorf("%s: the cached run differs from a cold read:\ncached %v\ncold   %v", step, warm, cold)
		}
		var got []string
		for _, d := range warm {
			if d.Rule == "chain-config-invalid" || d.Rule == "chain-typeid-unresolved" {
				got = append(got, d.Rule)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: findings %v, want %v", step, got, want)
		}
	}
	check("first run", "chain-config-invalid", "chain-typeid-unresolved")
	n := entries()
	lint(true)
	if entries() != n {
		t.Fatal("an unchanged checkout linted again")
	}
	if lazy && (len(last.Packs) != 0 || last.Len() != 4) {
		t.Errorf("a cached run read the facts: %d packs read, Len %d", len(last.Packs), last.Len())
	}

	// A pack the chain does not use changes its schema: no input, a hit.
	write("packs/community.acme.other/x.json", `{"type": "string"}`)
	check("unused pack's schema edited", "chain-config-invalid", "chain-typeid-unresolved")
	if entries() != n {
		t.Error("editing a pack the chain does not use cost a lint")
	}
	// A schema the used node type's schema $refs, in another pack, is edited.
	write("packs/community.acme.shared/channel.json", `{"$id": "https://packs.example/community.acme.shared/1.0.0/channel.json", "enum": ["email", "fax"]}`)
	check("$ref'd schema in another pack edited", "chain-typeid-unresolved")
	// The used node type's schema is edited.
	write("packs/community.acme.tools/schemas/c.json", `{"type": "object", "required": ["text"]}`)
	check("used schema edited", "chain-config-invalid", "chain-typeid-unresolved")
	write("packs/community.acme.tools/schemas/c.json", `{"type": "object"}`)
	check("used schema edited back", "chain-typeid-unresolved")
	// A used schema now $refs a pack no run looked up before: that pack's
	// files become an input (StateFor's kept answers hold none for it).
	write("packs/community.acme.tools/schemas/c.json", `{"type": "object", "properties": {"channel": {"$ref": "https://packs.example/community.acme.other/1.0.0/x.json"}}}`)
	check("used schema $refs a new pack", "chain-typeid-unresolved")
	write("packs/community.acme.other/x.json", `{"type": "integer"}`)
	check("newly $ref'd pack edited", "chain-config-invalid", "chain-typeid-unresolved")
	write("packs/community.acme.tools/schemas/c.json", `{"type": "object"}`)
	check("$ref dropped again", "chain-typeid-unresolved")
	// A pack defining the missing node type is added.
	write("packs/community.acme.more/pack.json", `{"name": "community.acme.more", "version": "1.0.0", "nodes": [{"typeId": "community.acme.more.fax"}]}`)
	check("pack added")
	// A manifest is edited: the node type is gone again.
	write("packs/community.acme.more/pack.json", `{"name": "community.acme.more", "version": "1.0.1", "nodes": [{"typeId": "community.acme.more.mail"}]}`)
	check("manifest edited", "chain-typeid-unresolved")
	// A pack is removed.
	if err := os.RemoveAll(filepath.Join(root, "packs", "community.acme.tools")); err != nil {
		t.Fatal(err)
	}
	check("pack removed", "chain-typeid-unresolved", "chain-typeid-unresolved")
}
