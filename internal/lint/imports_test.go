package lint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/tarball"
)

// TestImportThroughALink: a module imported by a relative path that is a
// link (here to a file outside the pack) is named as no regular file, not
// as missing, and nothing outside the pack is read.
func TestImportThroughALink(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "community.acme.demo")
	outside := filepath.Join(t.TempDir(), "secret.mjs")
	files := map[string]string{
		"pack.json": `{"name":"community.acme.demo","version":"1.0.0","description":"D.","license":"MIT","engines":{"openwop":">=1.1.0 <2.0.0"},
"runtime":{"language":"javascript","entry":"index.mjs","format":"esm"},"nodes":[{"typeId":"community.acme.demo.a","version":"1.0.0","role":"pure"}]}`,
		"index.mjs": "import { a } from './lib/a.mjs';\nexport const nodes = { 'community.acme.demo.a': async () => a() };\n",
	}
	for name, body := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(outside, []byte("export const a = () => 'SECRET';\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "lib"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "lib", "a.mjs")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	pk, err := pack.Load(dir, tarball.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := Run(pk, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range ds {
		if d.Rule == "runtime-import-unbundled" {
			got = append(got, d.Message)
		}
		if strings.Contains(d.Message, "SECRET") {
			t.Errorf("a finding shows the linked file's contents: %s", d.Message)
		}
	}
	if len(got) != 1 || !strings.Contains(got[0], "lib/a.mjs is no regular file") {
		t.Errorf("runtime-import-unbundled = %q, want lib/a.mjs named as no regular file", got)
	}
}
