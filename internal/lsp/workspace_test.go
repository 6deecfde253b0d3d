package lsp

import (
	"context"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wop-cli/wop/internal/lsp/lsptest"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

const agentsPack = `{"name": "community.acme.agents", "version": "1.0.0", "engines": {"openwop": ">=1.1.0 <2.0.0"},
 "runtime": {"language": "remote", "entry": "pack.json"},
 "agents": [{"agentId": "community.acme.agents.a", "persona": "A", "modelClass": "general", "systemPrompt": "Hi.",
   "toolAllowlist": ["openwop:community.acme.tools.fetch", "openwop:community.acme.tools.missing"]}]}
`

func messages(ds []protocol.Diagnostic) string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Message)
	}
	return strings.Join(out, "\n")
}

// TestWorkspace: two roots, one a registry checkout whose catalog lint
// finds as the CLI does, one a lone pack; editing a .wop.yaml re-lints the
// open pack below it; removing a root clears what it showed.
func TestWorkspace(t *testing.T) {
	checkout := filepath.Join(t.TempDir(), "registry")
	mustWrite(t, filepath.Join(checkout, "registry", ".well-known", "openwop-registry.json"), "{}\n")
	mustWrite(t, filepath.Join(checkout, "packs", "community.acme.tools", "pack.json"),
		`{"name": "community.acme.tools", "version": "1.0.0", "nodes": [{"typeId": "community.acme.tools.fetch"}]}`+"\n")
	inCheckout := filepath.Join(checkout, "packs", "community.acme.agents", "pack.json")
	mustWrite(t, inCheckout, agentsPack)
	lone := filepath.Join(t.TempDir(), "work")
	alone := filepath.Join(lone, "agents", "pack.json")
	mustWrite(t, alone, agentsPack)
	cfg := filepath.Join(lone, ".wop.yaml")
	mustWrite(t, cfg, "registry: private\n")

	s := start(t, checkout)
	if err := s.Notify(s.ctx, protocol.MethodWorkspaceDidChangeWorkspaceFolders, &protocol.DidChangeWorkspaceFoldersParams{
		Event: protocol.WorkspaceFoldersChangeEvent{Added: []protocol.WorkspaceFolder{{URI: string(uri.File(lone)), Name: "work"}}}}); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{inCheckout, alone} {
		if err := s.Open(s.ctx, p, agentsPack); err != nil {
			t.Fatal(err)
		}
	}
	p, err := s.Diagnostics(s.ctx, inCheckout, lsptest.AtVersion(1))
	if err != nil {
		t.Fatal(err)
	}
	if got := messages(p.Diagnostics); !strings.Contains(got, "tools.missing") || strings.Contains(got, "tools.fetch") {
		t.Errorf("in the checkout: %q, want only tools.missing unresolved (the checkout's catalog defines fetch)", got)
	}
	p, err = s.Diagnostics(s.ctx, alone, lsptest.AtVersion(1))
	if err != nil {
		t.Fatal(err)
	}
	if got := messages(p.Diagnostics); !strings.Contains(got, "tools.missing") || !strings.Contains(got, "tools.fetch") {
		t.Errorf("the lone pack: %q, want both tools unresolved (no catalog)", got)
	}

	if err := s.Open(s.ctx, cfg, "registry: private\nrules:\n  tool-allowlist-unresolved: off\n"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Diagnostics(s.ctx, alone, func(p protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 0 }); err != nil {
		t.Fatalf("the .wop.yaml buffer did not re-lint the pack below it: %v", err)
	}

	if err := s.Close(s.ctx, inCheckout); err != nil {
		t.Fatal(err)
	}
	if err := s.Notify(s.ctx, protocol.MethodWorkspaceDidChangeWorkspaceFolders, &protocol.DidChangeWorkspaceFoldersParams{
		Event: protocol.WorkspaceFoldersChangeEvent{Removed: []protocol.WorkspaceFolder{{URI: string(uri.File(checkout)), Name: "registry"}}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Diagnostics(s.ctx, inCheckout, func(p protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 0 }); err != nil {
		t.Fatalf("removing the folder left its diagnostics: %v", err)
	}
}

// TestWatchRegistration: the server asks to watch files only a client that
// said it can register them dynamically (Neovim 0.7 warns of the request).
func TestWatchRegistration(t *testing.T) {
	for _, dynamic := range []bool{true, false} {
		t.Run(fmt.Sprint("dynamic=", dynamic), func(t *testing.T) {
			dir := copyExample(t)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			a, b := net.Pipe()
			defer b.Close()
			go func() { _ = Serve(ctx, a, Options{Env: testEnv(dir, io.Discard), Debounce: time.Millisecond}) }()
			c := lsptest.New(ctx, b)
			params := &protocol.InitializeParams{Capabilities: protocol.ClientCapabilities{Workspace: &protocol.WorkspaceClientCapabilities{
				DidChangeWatchedFiles: &protocol.DidChangeWatchedFilesWorkspaceClientCapabilities{DynamicRegistration: dynamic}}}}
			if _, err := c.InitializeWith(ctx, params); err != nil {
				t.Fatal(err)
			}
			manifest := filepath.Join(dir, "pack.json")
			if err := c.Open(ctx, manifest, read(t, manifest)); err != nil {
				t.Fatal(err)
			}
			if _, err := c.Diagnostics(ctx, manifest, lsptest.AtVersion(1)); err != nil {
				t.Fatal(err)
			}
			for dynamic && len(c.Registrations()) == 0 && ctx.Err() == nil {
				time.Sleep(time.Millisecond)
			}
			if got := len(c.Registrations()) > 0; got != dynamic {
				t.Errorf("registrations = %v with dynamic registration %v", c.Registrations(), dynamic)
			}
		})
	}
}
