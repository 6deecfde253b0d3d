package root

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/testutil/hostile"
)

// lintRun is one wop pack lint: its exit status and output.
type lintRun struct {
	code        int
	out, errOut string
}

// runCached runs wop with a lint cache in cacheDir (and a build id, which
// the cache needs).
func runCached(t *testing.T, dir, cacheDir string, args ...string) lintRun {
	t.Helper()
	var out, errOut bytes.Buffer
	env := &cli.Env{In: strings.NewReader(""), Out: &out, ErrOut: &errOut, Getenv: func(string) string { return "" },
		WorkDir: dir, Version: "test", BuildID: "build-1", CacheDir: cacheDir,
		HTTPClient: func() *http.Client { return &http.Client{} }}
	code := Main(context.Background(), args, env)
	return lintRun{code, out.String(), errOut.String()}
}

func writeArchive(t *testing.T, path string, entries []hostile.Entry) {
	t.Helper()
	raw, err := hostile.Archive(entries)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, raw, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestLintCacheNeverChangesVerdict: each hostile archive, linted where a
// clean one primed the cache (same path, same manifest and prompt), prints
// the same findings and exits as with --no-cache; and so on a second,
// cached run.
func TestLintCacheNeverChangesVerdict(t *testing.T) {
	for _, f := range hostile.Archives() {
		for _, strict := range []bool{false, true} {
			name := f.Name
			if strict {
				name += "/strict"
			}
			t.Run(name, func(t *testing.T) {
				dir, cacheDir := t.TempDir(), t.TempDir()
				args := []string{"pack", "lint", "--format", "json"}
				if strict {
					args = append(args, "--strict")
				}
				args = append(args, "demo.tgz")
				writeArchive(t, filepath.Join(dir, "demo.tgz"), hostile.Clean())
				runCached(t, dir, cacheDir, args...)
				writeArchive(t, filepath.Join(dir, "demo.tgz"), f.Entries)
				want := runCached(t, dir, cacheDir, append([]string{"pack", "lint", "--no-cache"}, args[2:]...)...)
				for i := range 2 {
					if got := runCached(t, dir, cacheDir, args...); got != want {
						t.Fatalf("cached run %d: exit %d, want %d\n%s\nwant:\n%s", i+1, got.code, want.code, got.out, want.out)
					}
				}
			})
		}
	}
}

// TestLintCacheRenamedDirStrict: name-dir-mismatch is not replayed onto a
// renamed copy, so --strict's exit status follows the directory's name.
func TestLintCacheRenamedDirStrict(t *testing.T) {
	dir, cacheDir := t.TempDir(), t.TempDir()
	if err := hostile.WriteDir(filepath.Join(dir, "acme.demo"), hostile.Clean()); err != nil {
		t.Fatal(err)
	}
	if got := runCached(t, dir, cacheDir, "pack", "lint", "--strict", "acme.demo"); got.code != cli.ExitFindings || !strings.Contains(got.out, "name-dir-mismatch") {
		t.Fatalf("acme.demo: exit %d\n%s", got.code, got.out)
	}
	if err := os.Rename(filepath.Join(dir, "acme.demo"), filepath.Join(dir, "community.acme.demo")); err != nil {
		t.Fatal(err)
	}
	if got := runCached(t, dir, cacheDir, "pack", "lint", "--strict", "community.acme.demo"); got.code != cli.ExitOK {
		t.Fatalf("renamed: exit %d\n%s%s", got.code, got.out, got.errOut)
	}
}

// TestLintCacheSiblingPacks: name-dir-mismatch depends on whether other
// packs sit next to this one; adding one changes the verdict under
// --strict, cached or not.
func TestLintCacheSiblingPacks(t *testing.T) {
	dir, cacheDir := t.TempDir(), t.TempDir()
	if err := hostile.WriteDir(filepath.Join(dir, "demo"), hostile.Clean()); err != nil {
		t.Fatal(err)
	}
	if got := runCached(t, dir, cacheDir, "pack", "lint", "--strict", "demo"); got.code != cli.ExitOK {
		t.Fatalf("alone: exit %d\n%s", got.code, got.out)
	}
	if err := hostile.WriteDir(filepath.Join(dir, "other"), hostile.Clean()); err != nil {
		t.Fatal(err)
	}
	want := runCached(t, dir, cacheDir, "pack", "lint", "--strict", "--no-cache", "demo")
	got := runCached(t, dir, cacheDir, "pack", "lint", "--strict", "demo")
	if want.code != cli.ExitFindings || got != want {
		t.Fatalf("with a sibling: cached exit %d, uncached %d\n%s", got.code, want.code, got.out)
	}
}

// TestLintCacheLoweredLimit: lowering .wop.yaml's limits below a cached
// clean pack's size makes it fail, as without a cache.
func TestLintCacheLoweredLimit(t *testing.T) {
	dir, cacheDir := t.TempDir(), t.TempDir()
	if err := hostile.WriteDir(filepath.Join(dir, "community.acme.demo"), hostile.Clean()); err != nil {
		t.Fatal(err)
	}
	if got := runCached(t, dir, cacheDir, "pack", "lint", "community.acme.demo"); got.code != cli.ExitOK {
		t.Fatalf("clean: exit %d\n%s%s", got.code, got.out, got.errOut)
	}
	if err := os.WriteFile(filepath.Join(dir, ".wop.yaml"), []byte("limits:\n  file: 4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	want := runCached(t, dir, cacheDir, "pack", "lint", "--no-cache", "community.acme.demo")
	got := runCached(t, dir, cacheDir, "pack", "lint", "community.acme.demo")
	if want.code != cli.ExitFindings || got != want {
		t.Fatalf("lowered limit: cached exit %d, uncached %d\n%s\n%s", got.code, want.code, got.out, want.out)
	}
}

// TestLintCacheUnwritableWarns: a cache directory that cannot be written
// costs a warning, not the verdict.
func TestLintCacheUnwritableWarns(t *testing.T) {
	dir := t.TempDir()
	if err := hostile.WriteDir(filepath.Join(dir, "community.acme.demo"), hostile.Clean()); err != nil {
		t.Fatal(err)
	}
	notDir := filepath.Join(dir, "cache-is-a-file")
	if err := os.WriteFile(notDir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	got := runCached(t, dir, notDir, "pack", "lint", "community.acme.demo")
	if got.code != cli.ExitOK || strings.Count(got.errOut, "warning: results not cached") != 1 {
		t.Fatalf("exit %d, stderr:\n%s", got.code, got.errOut)
	}
}

// TestLintPrunesTheCache: a lint trims the cache by itself once a day:
// an entry no run has used for a month goes, the entries in use stay, and
// the verdict is the same.
func TestLintPrunesTheCache(t *testing.T) {
	dir, cacheDir := t.TempDir(), t.TempDir()
	if err := hostile.WriteDir(filepath.Join(dir, "community.acme.demo"), hostile.Clean()); err != nil {
		t.Fatal(err)
	}
	first := runCached(t, dir, cacheDir, "pack", "lint", "community.acme.demo")
	entries, _ := filepath.Glob(filepath.Join(cacheDir, "lint", "*.json"))
	if first.code != cli.ExitOK || len(entries) != 1 {
		t.Fatalf("exit %d, entries %v\n%s%s", first.code, entries, first.out, first.errOut)
	}
	stale := filepath.Join(cacheDir, "lint", strings.Repeat("ab", 32)+".json")
	if err := os.WriteFile(stale, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	month, twoDays := time.Now().Add(-40*24*time.Hour), time.Now().Add(-48*time.Hour)
	os.Chtimes(stale, month, month)
	os.Chtimes(filepath.Join(cacheDir, "lint", "trim.txt"), twoDays, twoDays) // the last trim: two days ago
	if got := runCached(t, dir, cacheDir, "pack", "lint", "community.acme.demo"); got != first {
		t.Fatalf("after a trim: exit %d\n%s, want\n%s", got.code, got.out, first.out)
	}
	if _, err := os.Stat(stale); err == nil {
		t.Error("an entry unused for a month was kept")
	}
	if _, err := os.Stat(entries[0]); err != nil {
		t.Errorf("the entry in use was removed: %v", err)
	}
}
