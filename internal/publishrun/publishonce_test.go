package publishrun

import (
	"archive/tar"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wop-cli/wop/internal/lintrun"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/registry"
	"github.com/wop-cli/wop/internal/tarball"
	"github.com/wop-cli/wop/internal/testutil/hostile"
)

// packTgz returns a gzipped tar of a minimal pack at version.
func packTgz(t *testing.T, version string) []byte {
	t.Helper()
	manifest := `{"name":"community.acme.demo","version":"` + version + `","engines":{"openwop":">=1.1.0 <2.0.0"},` +
		`"runtime":{"language":"remote","entry":"pack.json"},"agents":[{"agentId":"community.acme.demo.a","persona":"A","modelClass":"general","systemPrompt":"Hi."}]}`
	b, err := hostile.Archive([]hostile.Entry{{Name: "pack.json", Type: tar.TypeReg, Data: []byte(manifest)}})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestPublishGatesTheArchiveItHashed: an archive swapped under the name
// after publish hashed it is refused; the gates never check, and the upload
// never sends, a file other than the one hashed.
func TestPublishGatesTheArchiveItHashed(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "demo.tgz")
	if err := os.WriteFile(path, packTgz(t, "1.0.0"), 0o644); err != nil {
		t.Fatal(err)
	}
	var errOut bytes.Buffer
	env := &lintrun.Env{WorkDir: dir, Out: &errOut, ErrOut: &errOut, Getenv: func(string) string { return "" }}
	abs := func(p string) string {
		if filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(dir, p)
	}
	r := Request{Target: "demo.tgz", Env: env, Abs: abs, Timeout: time.Minute, NoLint: true, DryRun: true, Redactor: registry.NewRedactor()}
	r.Load = func(arg string, lim tarball.Limits) (*pack.Pack, error) { return pack.Load(abs(arg), lim) }
	r.Gate = func(*pack.Pack) error { return nil }
	r.AfterHash = func() {
		evil := filepath.Join(dir, "evil.tgz")
		if err := os.WriteFile(evil, packTgz(t, "6.6.6"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(evil, path); err != nil {
			t.Fatal(err)
		}
	}
	err := r.Run(context.Background())
	if err == nil || !strings.Contains(err.Error(), "changed since it was listed") {
		t.Fatalf("publish after a swap: %v, want a refusal", err)
	}
}
