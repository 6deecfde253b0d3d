package lint

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/wop-cli/wop/internal/catalog"
	"github.com/wop-cli/wop/internal/lintcache"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/tarball"
)

// TestCacheKeyedByCatalog: with a catalog, results are cached under its
// state; a changed catalog (here: the node type's config schema) lints again.
func TestCacheKeyedByCatalog(t *testing.T) {
	packDir, catDir := t.TempDir(), t.TempDir()
	write := func(dir, name, data string) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(packDir, "pack.json", `{"name": "community.acme.flows", "version": "1.0.0", "kind": "workflow-chain", "engines": {"openwop": ">=1.0.0 <2.0.0"},
	  "chains": [{"chainId": "acme.flow", "version": "1.0.0", "label": "F", "description": "F.", "parameters": {"type": "object"},
	    "dag": {"nodes": [{"id": "a", "typeId": "community.acme.tools.send", "config": {}}], "edges": []}}]}`)
	write(catDir, "community.acme.tools/pack.json", `{"name": "community.acme.tools", "version": "1.0.0", "nodes": [{"typeId": "community.acme.tools.send", "configSchemaRef": "schemas/c.json"}]}`)
	write(catDir, "community.acme.tools/schemas/c.json", `{"type": "object", "required": ["channel"]}`)
	cache := lintcache.Cache{Dir: t.TempDir()}
	lintOnce := func() int {
		c, err := catalog.Open(t.Context(), catDir, catalog.Options{})
		if err != nil {
			t.Fatal(err)
		}
		r := RunAll([]Job{{Path: packDir, Opt: Options{Cache: cache, CacheSalt: "v1", Catalog: c}}}, func(j Job) (*pack.Pack, error) {
			return pack.Load(j.Path, tarball.DefaultLimits)
		})[0]
		return len(keepRule(r.Diags, "chain-config-invalid"))
	}
	if n := lintOnce(); n != 1 {
		t.Fatalf("first run: %d findings", n)
	}
	entries, _ := filepath.Glob(filepath.Join(cache.Dir, "lint", "*.json"))
	if len(entries) != 1 {
		t.Fatalf("with a catalog the result is cached: entries %v", entries)
	}
	// The schema changes (a later mtime too, for coarse file systems).
	write(catDir, "community.acme.tools/schemas/c.json", `{"type": "object"}`)
	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(filepath.Join(catDir, "community.acme.tools", "schemas", "c.json"), later, later); err != nil {
		t.Fatal(err)
	}
	if n := lintOnce(); n != 0 {
		t.Errorf("a changed catalog served a stale result: %d findings", n)
	}
}
