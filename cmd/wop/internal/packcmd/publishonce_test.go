package packcmd

import (
	"archive/tar"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/registry"
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
	env := &cli.Env{WorkDir: dir, ConfigDir: t.TempDir(), Out: &errOut, ErrOut: &errOut, Getenv: func(string) string { return "" }}
	o := &publishOptions{env: env, target: "demo.tgz", timeout: time.Minute, noLint: true, dryRun: true}
	o.afterHash = func() {
		evil := filepath.Join(dir, "evil.tgz")
		if err := os.WriteFile(evil, packTgz(t, "6.6.6"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(evil, path); err != nil {
			t.Fatal(err)
		}
	}
	err := o.request(registry.NewRedactor()).Run(context.Background())
	if err == nil || !strings.Contains(err.Error(), "changed since it was listed") {
		t.Fatalf("publish after a swap: %v, want a refusal", err)
	}
}
