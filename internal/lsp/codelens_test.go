package lsp

import (
	"bytes"
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wop-cli/wop/internal/lintrun"
	"github.com/wop-cli/wop/internal/lsp/lsptest"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// fakeLayout is a wop-graphviz stand-in: it answers every request with an
// SVG holding the DOT it was sent, so the test sees what was drawn
// without Graphviz.
const fakeLayout = `#!/bin/sh
python3 -c '
import json, sys
req = json.load(sys.stdin)
svg = "<svg xmlns=\"http://www.w3.org/2000/svg\"><desc>%s</desc></svg>"
svgs = [svg % g["dot"].replace("&", "&amp;").replace("<", "&lt;") for g in req["graphs"]]
print(json.dumps({"protocol": req["protocol"], "svgs": svgs}))
'
`

// TestChainGraphLens: pack.json's chain gets a "Show chain graph" lens;
// its command draws the unsaved buffer's chain with lint's analysis
// (catalog included), writes the SVG under the cache and asks the editor
// to show it.
func TestChainGraphLens(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh for the stand-in layout helper")
	}
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3 for the stand-in layout helper")
	}
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS("../graphrun/testdata")); err != nil {
		t.Fatal(err)
	}
	helper := filepath.Join(root, "wop-graphviz")
	if err := os.WriteFile(helper, []byte(fakeLayout), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(root, "reg", "packs", "community.acme.chains", ".wop.yaml")
	if err := os.WriteFile(cfg, []byte("catalog: ..\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	env := &lintrun.Env{WorkDir: root, Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}, CacheDir: cache, Now: time.Now,
		Getenv: func(k string) string {
			if k == "WOP_GRAPHVIZ_HELPER" {
				return helper
			}
			return ""
		}}
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	a, b := net.Pipe()
	defer b.Close()
	go func() { _ = Serve(ctx, a, Options{Env: env, Debounce: time.Millisecond}) }()
	c := lsptest.New(ctx, b)
	init, err := c.Initialize(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	if init.Capabilities.CodeLensProvider == nil || init.Capabilities.ExecuteCommandProvider == nil {
		t.Fatal("the server does not offer code lenses and their command")
	}
	manifest := filepath.Join(root, "reg", "packs", "community.acme.chains", "pack.json")
	text, err := os.ReadFile(manifest)
	if err != nil {
		t.Fatal(err)
	}
	// The unsaved buffer renames a node: the drawing is the buffer's.
	buffer := strings.Replace(string(text), `"id": "ask"`, `"id": "ask-unsaved"`, 1)
	buffer = strings.Replace(buffer, `"to": "ask"`, `"to": "ask-unsaved"`, 1)
	if err := c.Open(ctx, manifest, buffer); err != nil {
		t.Fatal(err)
	}
	var lenses []protocol.CodeLens
	if err := c.Call(ctx, protocol.MethodTextDocumentCodeLens, &protocol.CodeLensParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(manifest)}}, &lenses); err != nil {
		t.Fatal(err)
	}
	if len(lenses) != 2 || lenses[1].Command == nil || lenses[1].Command.Title != "Show chain graph" {
		t.Fatalf("lenses: %+v", lenses)
	}
	var shown string
	cmd := lenses[1].Command
	if err := c.Call(ctx, protocol.MethodWorkspaceExecuteCommand, &protocol.ExecuteCommandParams{Command: cmd.Command, Arguments: cmd.Arguments}, &shown); err != nil {
		t.Fatal(err)
	}
	path, ok := pathOf(protocol.DocumentURI(shown))
	if !ok || !strings.HasPrefix(path, cache) || filepath.Ext(path) != ".svg" {
		t.Fatalf("drawing written to %q, want an .svg under the cache %s", shown, cache)
	}
	svg, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"acme.refunds", "ask-unsaved", "deviceToken ← UNBOUND", "edge-type-conflict"} {
		if !bytes.Contains(svg, []byte(want)) {
			t.Errorf("the drawing lacks %q:\n%s", want, svg)
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for len(c.Shown()) == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if got := c.Shown(); len(got) != 1 || got[0] != shown {
		t.Errorf("showDocument asked for %v, want [%s]", got, shown)
	}
}
