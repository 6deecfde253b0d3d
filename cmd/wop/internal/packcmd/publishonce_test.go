package packcmd

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/registry"
)

// packTgz returns a gzipped tar of a minimal pack at version.
func packTgz(t *testing.T, version string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	manifest := []byte(`{"name":"community.acme.demo","version":"` + version + `","engines":{"openwop":">=1.1.0 <2.0.0"},` +
		`"runtime":{"language":"remote","entry":"pack.json"},"agents":[{"agentId":"community.acme.demo.a","persona":"A","modelClass":"general","systemPrompt":"Hi."}]}`)
	if err := tw.WriteHeader(&tar.Header{Name: "pack.json", Mode: 0o644, Size: int64(len(manifest)), Typeflag: tar.TypeReg}); err != nil {
		t.Fatal(err)
	}
	tw.Write(manifest)
	tw.Close()
	zw.Close()
	return buf.Bytes()
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
	err := o.run(context.Background(), registry.NewRedactor())
	if err == nil || !strings.Contains(err.Error(), "changed since it was listed") {
		t.Fatalf("publish after a swap: %v, want a refusal", err)
	}
}
