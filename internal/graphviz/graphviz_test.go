package graphviz

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wop-cli/wop/internal/testutil/filetree"
)

// TestLocate: $WOP_GRAPHVIZ_HELPER, then the helper beside wop, then PATH.
func TestLocate(t *testing.T) {
	dir := t.TempDir()
	beside := filepath.Join(dir, Name)
	if err := os.WriteFile(beside, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	exe := func() (string, error) { return filepath.Join(dir, "wop"), nil }
	env := func(v string) func(string) string { return func(string) string { return v } }
	if p, _ := Locate(env("/x/helper"), exe); p != "/x/helper" {
		t.Errorf("with $WOP_GRAPHVIZ_HELPER: %q", p)
	}
	if p, _ := Locate(env(""), exe); p != beside {
		t.Errorf("beside wop: %q", p)
	}
	t.Setenv("PATH", t.TempDir())
	_, err := Locate(env(""), func() (string, error) { return "", errors.New("no") })
	if err == nil || !strings.Contains(err.Error(), "go install github.com/wop-cli/wop/cmd/wop-graphviz") {
		t.Errorf("missing helper: %v", err)
	}
}

// TestRenderRefusesAnotherProtocol: a stale helper's answer is not used.
func TestRenderRefusesAnotherProtocol(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh for the stand-in helper")
	}
	helper := filepath.Join(t.TempDir(), Name)
	if err := os.WriteFile(helper, []byte("#!/bin/sh\ncat >/dev/null\necho '{\"protocol\":1,\"svg\":\"<svg/>\"}'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := Renderer{Helper: helper, CacheDir: t.TempDir()}.Render(t.Context(), []Graph{{Layout: Dot, DOT: "digraph {}"}})
	if err == nil || !strings.Contains(err.Error(), "speaks protocol 1, this wop needs 2") {
		t.Errorf("err = %v", err)
	}
}

func TestRenderNamesAMissingHelper(t *testing.T) {
	_, err := Renderer{Helper: filepath.Join(t.TempDir(), "absent")}.Render(t.Context(), []Graph{{Layout: Dot, DOT: "digraph {}"}})
	if err == nil || !strings.Contains(err.Error(), "cannot be run") || !strings.Contains(err.Error(), "go install") {
		t.Errorf("err = %v", err)
	}
}

// script writes a stand-in helper running body (sh) into dir.
func script(t *testing.T, dir, body string) string {
	t.Helper()
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh for the stand-in helper")
	}
	helper := filepath.Join(dir, Name)
	if err := os.WriteFile(helper, []byte("#!/bin/sh\ncat >/dev/null\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return helper
}

// answer is the sh that answers with one SVG, the output of the command cmd.
func answer(cmd string) string {
	return `printf '{"protocol":2,"svgs":["%s"]}' "$(` + cmd + `)"` + "\n"
}

func renderOne(t *testing.T, r Renderer) (string, error) {
	t.Helper()
	svgs, err := r.Render(t.Context(), []Graph{{Layout: Dot, DOT: "digraph {}"}})
	if err != nil {
		return "", err
	}
	return string(svgs[0]), nil
}

// TestCacheFolder: the helper keeps its compiled code in CacheDir, or with
// caching off in a private folder removed after the run; never in the
// shared system temporary folder, where another user could plant code.
func TestCacheFolder(t *testing.T) {
	helper := script(t, t.TempDir(), answer(`echo "$TMPDIR|$TMP|$TEMP"`))
	cache := filepath.Join(t.TempDir(), "graphviz")
	got, err := renderOne(t, Renderer{Helper: helper, CacheDir: cache})
	if want := cache + "|" + cache + "|" + cache; err != nil || got != want {
		t.Errorf("with CacheDir: %q, %v; want %q", got, err, want)
	}
	got, err = renderOne(t, Renderer{Helper: helper})
	private, _, _ := strings.Cut(got, "|")
	if err != nil || private == "" || filepath.Clean(private) == filepath.Clean(os.TempDir()) {
		t.Fatalf("caching off: the helper's TMPDIR is %q (%v), want a folder of its own", private, err)
	}
	if _, err := os.Stat(private); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the private folder %s outlived the run: %v", private, err)
	}
}

// TestSeedFromPrecompiled: the precompiled folder beside the helper is
// copied into the cache before the helper starts, file by file, where the
// cache lacks the file; a link in it is not followed, and a helper reached
// through a link finds the folder beside its target.
func TestSeedFromPrecompiled(t *testing.T) {
	install := t.TempDir()
	helper := script(t, install, answer(`cat "$TMPDIR/go-graphviz/wazero-v1-amd64-linux/abc" "$TMPDIR/go-graphviz/secret" 2>/dev/null`))
	seed := filepath.Join(install, PrecompiledDir, "go-graphviz", "wazero-v1-amd64-linux")
	if err := os.MkdirAll(seed, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(seed, "abc"), []byte("compiled"), 0o644); err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(secret, []byte("SECRET"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, filepath.Join(install, PrecompiledDir, "go-graphviz", "secret")); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), Name)
	if err := os.Symlink(helper, link); err != nil {
		t.Fatal(err)
	}
	for name, r := range map[string]Renderer{
		"cached":      {Helper: link, CacheDir: t.TempDir()},
		"caching off": {Helper: helper},
	} {
		got, err := renderOne(t, r)
		if err != nil || got != "compiled" {
			t.Errorf("%s: the helper saw %q (%v), want the seed and not the link's target", name, got, err)
		}
	}
	cache := t.TempDir()
	own := filepath.Join(cache, "go-graphviz", "wazero-v1-amd64-linux", "abc")
	if err := os.MkdirAll(filepath.Dir(own), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(own, []byte("its own"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, err := renderOne(t, Renderer{Helper: helper, CacheDir: cache}); err != nil || got != "its own" {
		t.Errorf("a file the cache has was replaced: the helper saw %q (%v)", got, err)
	}
}

// TestDamagedCache: a helper that dies without an answer (a damaged
// compiled module makes go-graphviz panic at start-up, every run) is run
// once more with its compiled code forgotten; if it dies again the user
// reads the panic's message, not its goroutine dump.
func TestDamagedCache(t *testing.T) {
	helper := script(t, t.TempDir(), `if [ -e "$TMPDIR/go-graphviz/bad" ]; then
  echo 'panic: compilationcache: error reading executable (len=6127342): unexpected EOF' >&2
  printf '\ngoroutine 1 [running]:\n' >&2
  exit 2
fi
`+answer(`echo fine`))
	cache := t.TempDir()
	if err := os.MkdirAll(filepath.Join(cache, "go-graphviz"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cache, "go-graphviz", "bad"), []byte("cut short"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, err := renderOne(t, Renderer{Helper: helper, CacheDir: cache}); err != nil || got != "fine" {
		t.Errorf("damaged cache: %q, %v", got, err)
	}
	// Any other crash (out of memory, a bug) is reported after one run,
	// and the cache other wop processes share is left alone.
	runs := filepath.Join(t.TempDir(), "runs")
	crasher := script(t, t.TempDir(), "echo run >> '"+runs+"'\necho 'panic: boom' >&2\necho 'goroutine 1 [running]:' >&2\nexit 2\n")
	filetree.Write(t, cache, map[string]string{"go-graphviz/module": "compiled"})
	kept := filepath.Join(cache, "go-graphviz", "module")
	_, err := renderOne(t, Renderer{Helper: crasher, CacheDir: cache})
	if err == nil || !strings.Contains(err.Error(), "exit status 2: panic: boom") || strings.Contains(err.Error(), "goroutine") {
		t.Errorf("crashing helper: %v", err)
	}
	if n, _ := os.ReadFile(runs); string(n) != "run\n" {
		t.Errorf("the crashing helper ran %q, want once", n)
	}
	if _, err := os.Stat(kept); err != nil {
		t.Errorf("a crash that names no damaged cache cleared the cache: %v", err)
	}
}

// TestUnwritableCacheFolder: a cache folder that cannot be made (a file in
// its place, a read-only home) costs the drawing its cache, not the
// drawing: the helper gets a private folder, removed after the run.
func TestUnwritableCacheFolder(t *testing.T) {
	helper := script(t, t.TempDir(), answer(`echo "$TMPDIR"`))
	blocked := filepath.Join(t.TempDir(), "graphviz")
	if err := os.WriteFile(blocked, []byte("not a folder"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := renderOne(t, Renderer{Helper: helper, CacheDir: filepath.Join(blocked, "x")})
	if err != nil || got == "" || strings.HasPrefix(got, blocked) || filepath.Clean(got) == filepath.Clean(os.TempDir()) {
		t.Fatalf("the helper's TMPDIR is %q (%v), want a private folder", got, err)
	}
	if _, err := os.Stat(got); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the private folder %s outlived the run: %v", got, err)
	}
	// A file where the compiled code's folder goes is cleared away, and
	// the cache used.
	cache := t.TempDir()
	if err := os.WriteFile(filepath.Join(cache, "go-graphviz"), []byte("in the way"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := renderOne(t, Renderer{Helper: helper, CacheDir: cache}); err != nil || got != cache {
		t.Errorf("with a file in the compiled code's place: TMPDIR %q (%v), want %q", got, err, cache)
	}
	if info, err := os.Stat(filepath.Join(cache, "go-graphviz")); err != nil || !info.IsDir() {
		t.Errorf("go-graphviz is not a folder now: %v", err)
	}
}

// TestHelperThatCannotStart: a helper that is not executable (or built for
// another platform) never ran: its error says so, and the compiled code in
// the cache is kept.
func TestHelperThatCannotStart(t *testing.T) {
	helper := filepath.Join(t.TempDir(), Name)
	if err := os.WriteFile(helper, []byte("#!/bin/sh\necho '{}'\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	filetree.Write(t, cache, map[string]string{"go-graphviz/module": "compiled"})
	compiled := filepath.Join(cache, "go-graphviz", "module")
	_, err := renderOne(t, Renderer{Helper: helper, CacheDir: cache})
	if err == nil || !strings.Contains(err.Error(), "cannot be run") {
		t.Errorf("err = %v, want the helper named as not runnable", err)
	}
	if _, err := os.Stat(compiled); err != nil {
		t.Errorf("the cache's compiled code was forgotten: %v", err)
	}
}

// TestHelperTimeout: a helper that never answers is stopped after Timeout,
// its children's hold on its pipes included, and the error says so.
func TestHelperTimeout(t *testing.T) {
	helper := script(t, t.TempDir(), "sleep 30\n")
	start := time.Now()
	_, err := renderOne(t, Renderer{Helper: helper, CacheDir: t.TempDir(), Timeout: 200 * time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "did not answer within 200ms") || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want the timeout named", err)
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("stopping the helper took %s", took)
	}
}
