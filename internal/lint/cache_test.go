package lint

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/lintcache"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/tarball"
)

// TestCacheHitsOnlyUnchangedPacks: a second run reuses the findings, and
// any edit to any file, or another salt, lints again.
func TestCacheHitsOnlyUnchangedPacks(t *testing.T) {
	dir := t.TempDir()
	manifest := `{"name":"community.acme.demo","version":"1.0.0","engines":{"openwop":">=1.1.0 <2.0.0"},"runtime":{"language":"remote","entry":"pack.json"},"agents":[{"agentId":"community.acme.demo.a","persona":"A","modelClass":"general","systemPromptRef":"prompts/a.md"}]}`
	if err := os.WriteFile(filepath.Join(dir, "pack.json"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	opt := Options{Cache: lintcache.Cache{Dir: t.TempDir()}, CacheSalt: "v1"}
	lintOnce := func(o Options) Result {
		r := RunAll([]Job{{Path: dir, Opt: o}}, func(j Job) (*pack.Pack, error) {
			pk, err := pack.Load(j.Path, tarball.DefaultLimits)
			if err == nil {
				pk.Display = "p"
			}
			return pk, err
		})[0]
		r.Diags = slices.DeleteFunc(r.Diags, func(d diag.Diagnostic) bool { return d.Severity != diag.Error })
		return r
	}
	first := lintOnce(opt)
	if len(first.Diags) != 1 || first.Diags[0].Rule != "ref-missing" || first.Diags[0].File != "p/pack.json" {
		t.Fatalf("first run: %+v", first.Diags)
	}
	entries, _ := filepath.Glob(filepath.Join(opt.Cache.Dir, "lint", "*", "*.json"))
	if len(entries) != 1 {
		t.Fatalf("cache entries: %v", entries)
	}
	// A planted entry proves the second run reads the cache.
	if second := lintOnce(opt); !reflect.DeepEqual(second.Diags, first.Diags) {
		t.Fatalf("cached run differs: %+v", second.Diags)
	}
	if err := os.WriteFile(entries[0], []byte(`{"Diags":[]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := lintOnce(opt); len(got.Diags) != 0 {
		t.Fatalf("cache not read: %+v", got.Diags)
	}
	if got := lintOnce(Options{Cache: opt.Cache, CacheSalt: "v2"}); len(got.Diags) != 1 {
		t.Fatalf("another salt reused the entry: %+v", got.Diags)
	}
	if err := os.MkdirAll(filepath.Join(dir, "prompts"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "prompts", "a.md"), []byte("hi\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := lintOnce(opt); len(got.Diags) != 0 {
		t.Fatalf("after adding the prompt: %+v", got.Diags)
	}
}
