package root

import (
	"bytes"
	"context"
	"crypto/sha256"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/build"
)

// TestPublishSameContentLine: a registry holding this version as another
// gzip of the same tar has the same content, not the same bytes; the line
// says so.
func TestPublishSameContentLine(t *testing.T) {
	dir, srv, _ := publishEnv(t)
	ours, err := os.ReadFile(filepath.Join(dir, archive))
	if err != nil {
		t.Fatal(err)
	}
	srv.Publish("community.acme.demo", "1.0.0", regzip(t, ours))
	code, out, errOut := publishWith(t, dir, tokenEnv(), "--registry", srv.URL)
	if code != cli.ExitOK {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	want := "community.acme.demo@1.0.0 is already published at " + srv.URL + " with the same content (the registry's archive " +
		integrityOf(regzip(t, ours)) + " holds the tar of this one, " + integrityOf(ours) + ", gzipped differently); nothing to do\n"
	if out != want {
		t.Errorf("got  %q\nwant %q", out, want)
	}
}

func integrityOf(data []byte) string {
	sum := sha256.Sum256(data)
	return build.IntegrityOf(sum[:]).SRI
}

// TestLintCacheKeyHasBuildID: the CLI salts the lint cache key with the
// wop build, so a new build (new rules) never reuses an old build's
// verdict: one pack linted twice into one cache by two builds is a miss
// (a second entry), by one build a hit (none added).
func TestLintCacheKeyHasBuildID(t *testing.T) {
	dir, cacheDir := t.TempDir(), t.TempDir()
	manifest := `{"name":"community.acme.demo","version":"1.0.0","engines":{"openwop":">=1.1.0 <2.0.0"},"runtime":{"language":"remote","entry":"pack.json"},"agents":[{"agentId":"community.acme.demo.a","persona":"A","modelClass":"general","systemPrompt":"Hi."}]}`
	if err := os.WriteFile(filepath.Join(dir, "pack.json"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	lint := func(buildID string) int {
		t.Helper()
		var out, errOut bytes.Buffer
		env := &cli.Env{In: strings.NewReader(""), Out: &out, ErrOut: &errOut, Getenv: func(string) string { return "" },
			WorkDir: dir, Version: "test", BuildID: buildID, CacheDir: cacheDir,
			HTTPClient: func() *http.Client { return &http.Client{} }}
		if code := Main(context.Background(), []string{"pack", "lint", "."}, env); code != cli.ExitOK {
			t.Fatalf("lint with build %s: exit %d\n%s%s", buildID, code, out.String(), errOut.String())
		}
		return cacheEntries(t, cacheDir)
	}
	first := lint("build-1")
	if first == 0 {
		t.Fatal("the first lint cached nothing")
	}
	if again := lint("build-1"); again != first {
		t.Errorf("the same build again: %d cache entries, want %d (a hit)", again, first)
	}
	if other := lint("build-2"); other != first+1 {
		t.Errorf("another build: %d cache entries, want %d (a miss, cached anew)", other, first+1)
	}
}

// cacheEntries counts the regular files under dir.
func cacheEntries(t *testing.T, dir string) int {
	t.Helper()
	n := 0
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			n++
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}
