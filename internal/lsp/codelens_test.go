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

// lensSession starts a server on a copy of graphrun's test registry, its
// catalog configured and wop-graphviz played by fakeLayout; it answers the
// client, the copy's root and the cache the server writes drawings under.
func lensSession(t *testing.T) (context.Context, *lsptest.Client, string, string) {
	t.Helper()
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
	t.Cleanup(cancel)
	a, b := net.Pipe()
	t.Cleanup(func() { b.Close() })
	go func() { _ = Serve(ctx, a, Options{Env: env, Debounce: time.Millisecond}) }()
	c := lsptest.New(ctx, b)
	init, err := c.Initialize(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	if init.Capabilities.CodeLensProvider == nil || init.Capabilities.ExecuteCommandProvider == nil {
		t.Fatal("the server does not offer code lenses and their command")
	}
	return ctx, c, root, cache
}

// chainsManifest is the session's chain pack manifest: its path and what
// the disk holds.
func chainsManifest(t *testing.T, root string) (string, []byte) {
	t.Helper()
	manifest := filepath.Join(root, "reg", "packs", "community.acme.chains", "pack.json")
	text, err := os.ReadFile(manifest)
	if err != nil {
		t.Fatal(err)
	}
	return manifest, text
}

// TestChainGraphLens: pack.json's chain gets a "Show chain graph" lens;
// its command draws the unsaved buffer's chain with lint's analysis
// (catalog included), writes the SVG under the cache and asks the editor
// to show it.
func TestChainGraphLens(t *testing.T) {
	ctx, c, root, cache := lensSession(t)
	manifest, text := chainsManifest(t, root)
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

// TestChainGraphSVG: the command the VS Code panel calls answers the
// unsaved buffer's drawing and the chain's title, writes no file and shows
// nothing; a pointer that is no chain (the buffer changed under the panel)
// is an error the panel shows.
func TestChainGraphSVG(t *testing.T) {
	ctx, c, root, cache := lensSession(t)
	manifest, text := chainsManifest(t, root)
	buffer := strings.Replace(string(text), `"id": "ask"`, `"id": "ask-typed"`, 1)
	buffer = strings.Replace(buffer, `"to": "ask"`, `"to": "ask-typed"`, 1)
	if err := c.Open(ctx, manifest, buffer); err != nil {
		t.Fatal(err)
	}
	doc := string(uri.File(manifest))
	var got struct{ SVG, Title string }
	if err := c.Call(ctx, protocol.MethodWorkspaceExecuteCommand, &protocol.ExecuteCommandParams{Command: chainSVGCommand, Arguments: []any{doc, "/chains/1"}}, &got); err != nil {
		t.Fatal(err)
	}
	if got.Title != "Refund Digest" {
		t.Errorf("title %q, want the chain's label", got.Title)
	}
	for _, want := range []string{"<svg", "acme.refunds", "ask-typed"} {
		if !strings.Contains(got.SVG, want) {
			t.Errorf("the answer lacks %q:\n%s", want, got.SVG)
		}
	}
	if strings.Contains(got.SVG, `"ask"`) {
		t.Errorf("the answer draws the saved file, not the buffer:\n%s", got.SVG)
	}
	for _, bad := range [][]any{{doc, "/chains/7"}, {doc, "/name"}, {doc}} {
		err := c.Call(ctx, protocol.MethodWorkspaceExecuteCommand, &protocol.ExecuteCommandParams{Command: chainSVGCommand, Arguments: bad}, &got)
		if err == nil {
			t.Errorf("%v: no error", bad)
		}
	}
	if entries, _ := os.ReadDir(filepath.Join(cache, "graphs")); len(entries) != 0 {
		t.Errorf("%s wrote %d files; it answers the drawing", chainSVGCommand, len(entries))
	}
	if len(c.Shown()) != 0 || len(c.Messages()) != 0 {
		t.Errorf("%s showed %v and said %v; the panel shows its own", chainSVGCommand, c.Shown(), c.Messages())
	}
}
