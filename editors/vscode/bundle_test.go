package vscode_test

import (
	"archive/zip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestVsixIsBundled: package.sh bundles the extension with esbuild, as vsce
// recommends: the .vsix holds one JavaScript file, the one package.json's
// main names, and no node_modules (it held 170 .js files of 211 before).
func TestVsixIsBundled(t *testing.T) {
	tool(t, "node")
	modules, err := filepath.Abs("node_modules")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(modules, ".bin", "esbuild")); err != nil {
		t.Skip("editors/vscode/node_modules is not installed: run `npm ci` in editors/vscode (the test itself stays offline)")
	}
	vsix := strings.TrimSpace(run(t, 5*time.Minute, []string{"WOP_VSIX_NODE_MODULES=" + modules}, "sh", "package.sh", t.TempDir(), "0.0.0-test"))
	zr, err := zip.OpenReader(vsix)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var js []string
	var manifest struct{ Main string }
	for _, f := range zr.File {
		if strings.Contains(f.Name, "node_modules/") {
			t.Errorf("the .vsix holds %s: the bundle should carry its dependencies", f.Name)
		}
		if strings.HasSuffix(f.Name, ".js") {
			js = append(js, f.Name)
		}
		if f.Name == "extension/package.json" {
			r, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			raw, _ := io.ReadAll(r)
			r.Close()
			if err := json.Unmarshal(raw, &manifest); err != nil {
				t.Fatal(err)
			}
		}
	}
	want := "extension/" + strings.TrimPrefix(manifest.Main, "./")
	if len(js) != 1 || js[0] != want {
		t.Errorf("JavaScript in the .vsix: %q, want only %s (package.json's main)", js, want)
	}
	t.Logf("%s: %d entries", filepath.Base(vsix), len(zr.File))
}
