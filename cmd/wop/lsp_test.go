package main

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wop-cli/wop/internal/lsp/lsptest"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// pipes is a child's standard input and output as one stream.
type pipes struct {
	io.Reader
	io.WriteCloser
}

// TestLSPSession drives the built `wop lsp` (TestMain puts the binary on
// PATH as wop) through an editor session and checks every answer:
// initialize, open, diagnostics, edit, hover, definition, completion, code
// action, close, shutdown and exit.
func TestLSPSession(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "text-tools")
	if err := os.CopyFS(dir, os.DirFS("../../examples/community.example.text-tools")); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "wop", "lsp", "--stdio")
	cmd.Env = append(os.Environ(), "WOP_CACHE_DIR=off", "HOME="+t.TempDir())
	cmd.Dir = dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := lsptest.New(ctx, pipes{out, in})
	step := func(name string, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v\nserver log:\n%s", name, err, stderr.String())
		}
	}
	init, err := c.Initialize(ctx, dir)
	step("initialize", err)
	if init.ServerInfo == nil || init.ServerInfo.Name != "wop" || init.Capabilities.HoverProvider != true {
		t.Errorf("initialize = %+v", init)
	}

	manifest := filepath.Join(dir, "pack.json")
	raw, _ := os.ReadFile(manifest)
	text := strings.Replace(string(raw), `"schemas/uppercase.input.json"`, `"./schemas/uppercase.input.json"`, 1)
	step("open", c.Open(ctx, manifest, text))
	p, err := c.Diagnostics(ctx, manifest, lsptest.AtVersion(1))
	step("diagnostics", err)
	if len(p.Diagnostics) != 1 || p.Diagnostics[0].Code != "ref-not-canonical" || p.Diagnostics[0].Source != "wop" {
		t.Errorf("diagnostics after open = %+v, want ref-not-canonical", p.Diagnostics)
	}
	finding := p.Diagnostics[0]

	at := func(s string, delta int) protocol.Position { // the position of s's first byte + delta, in a one-byte-per-unit text
		i := strings.Index(text, s) + delta
		line := strings.Count(text[:i], "\n")
		return protocol.Position{Line: uint32(line), Character: uint32(i - strings.LastIndex(text[:i], "\n") - 1)}
	}
	docPos := func(pos protocol.Position) protocol.TextDocumentPositionParams {
		return protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(manifest)}, Position: pos}
	}

	var hover protocol.Hover
	step("hover", c.Call(ctx, protocol.MethodTextDocumentHover, &protocol.HoverParams{TextDocumentPositionParams: docPos(finding.Range.Start)}, &hover))
	if !strings.Contains(hover.Contents.Value, "ref-not-canonical") {
		t.Errorf("hover on the finding = %q, want the rule's explanation", hover.Contents.Value)
	}

	var defs []protocol.Location
	step("definition", c.Call(ctx, protocol.MethodTextDocumentDefinition, &protocol.DefinitionParams{TextDocumentPositionParams: docPos(at(`"schemas/uppercase.config.json"`, 3))}, &defs))
	if len(defs) != 1 || defs[0].URI != uri.File(filepath.Join(dir, "schemas", "uppercase.config.json")) {
		t.Errorf("definition of configSchemaRef = %+v, want the schema file", defs)
	}

	var list protocol.CompletionList
	step("completion", c.Call(ctx, protocol.MethodTextDocumentCompletion, &protocol.CompletionParams{TextDocumentPositionParams: docPos(at(`"Apache-2.0"`, 1))}, &list))
	if !hasLabel(list.Items, "MIT") {
		t.Errorf("completion in license = %d items, want SPDX ids (MIT)", len(list.Items))
	}

	var actions []struct {
		Title string
		Edit  struct {
			Changes map[string][]protocol.TextEdit
		}
	}
	step("code action", c.Call(ctx, protocol.MethodTextDocumentCodeAction, &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(manifest)},
		Range: finding.Range, Context: protocol.CodeActionContext{Diagnostics: []protocol.Diagnostic{finding}}}, &actions))
	if len(actions) < 1 || len(actions[0].Edit.Changes[string(uri.File(manifest))]) != 1 {
		t.Fatalf("code actions = %+v, want lint's fix", actions)
	}
	fix := actions[0].Edit.Changes[string(uri.File(manifest))][0]

	v, err := c.Change(ctx, manifest, lsptest.Edit{Range: &fix.Range, Text: fix.NewText})
	step("edit", err)
	p, err = c.Diagnostics(ctx, manifest, lsptest.AtVersion(v))
	step("diagnostics after the fix", err)
	if len(p.Diagnostics) != 0 {
		t.Errorf("diagnostics after applying the fix = %+v, want none", p.Diagnostics)
	}

	step("close", c.Close(ctx, manifest))
	step("shutdown", c.Shutdown(ctx))
	step("exit", cmd.Wait())
}

func hasLabel(items []protocol.CompletionItem, label string) bool {
	for _, it := range items {
		if it.Label == label {
			return true
		}
	}
	return false
}
