package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// TestCheckoutManifestChangedOnDisk: the server keeps a registry
// checkout's catalog open across runs; a sibling pack.json edited on disk
// (didChangeWatchedFiles) is read again, so what it now defines resolves.
func TestCheckoutManifestChangedOnDisk(t *testing.T) {
	checkout := filepath.Join(t.TempDir(), "registry")
	mustWrite(t, filepath.Join(checkout, "registry", ".well-known", "openwop-registry.json"), "{}\n")
	tools := filepath.Join(checkout, "packs", "community.acme.tools", "pack.json")
	mustWrite(t, tools, `{"name": "community.acme.tools", "version": "1.0.0", "nodes": [{"typeId": "community.acme.tools.fetch"}]}`+"\n")
	agents := filepath.Join(checkout, "packs", "community.acme.agents", "pack.json")
	mustWrite(t, agents, agentsPack)

	s := start(t, checkout)
	if err := s.Open(s.ctx, agents, agentsPack); err != nil {
		t.Fatal(err)
	}
	unresolved := func(id string) func(protocol.PublishDiagnosticsParams) bool {
		return func(p protocol.PublishDiagnosticsParams) bool { return strings.Contains(messages(p.Diagnostics), id) }
	}
	if _, err := s.Diagnostics(s.ctx, agents, unresolved("tools.missing")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(tools, []byte(`{"name": "community.acme.tools", "version": "1.0.1", "nodes": [{"typeId": "community.acme.tools.fetch"}, {"typeId": "community.acme.tools.missing"}]}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := s.Notify(s.ctx, protocol.MethodWorkspaceDidChangeWatchedFiles, &protocol.DidChangeWatchedFilesParams{Changes: []*protocol.FileEvent{
		{URI: uri.File(tools), Type: protocol.FileChangeTypeChanged}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Diagnostics(s.ctx, agents, func(p protocol.PublishDiagnosticsParams) bool {
		return !strings.Contains(messages(p.Diagnostics), "tools.missing")
	}); err != nil {
		t.Fatalf("the manifest edited on disk was not seen: %v", err)
	}
}
