package lsp

import (
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// TestHoverExampleFitsTheFinding: hover on a modelClass enum error explains
// manifest-schema without its example about toolAllowlist, another
// property; it points at --explain instead.
func TestHoverExampleFitsTheFinding(t *testing.T) {
	dir := copyExample(t)
	s := start(t, dir)
	manifest := filepath.Join(dir, "pack.json")
	text := `{"name": "community.example.text-tools", "version": "1.0.0", "engines": {"openwop": ">=1.1.0 <2.0.0"},
 "runtime": {"language": "remote", "entry": "pack.json"},
 "agents": [{"agentId": "community.example.text-tools.a", "persona": "A", "modelClass": "reasonin", "systemPrompt": "Hi."}]}`
	if err := s.Open(s.ctx, manifest, text); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Diagnostics(s.ctx, manifest, func(p protocol.PublishDiagnosticsParams) bool {
		_, ok := find(p.Diagnostics, "manifest-schema")
		return ok
	}); err != nil {
		t.Fatal(err)
	}
	line2 := strings.Split(text, "\n")[2]
	at := protocol.Position{Line: 2, Character: uint32(strings.Index(line2, `"reasonin"`) + 2)}
	var hover *protocol.Hover
	if err := s.Call(s.ctx, protocol.MethodTextDocumentHover, &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(manifest)}, Position: at}}, &hover); err != nil {
		t.Fatal(err)
	}
	if hover == nil {
		t.Fatal("no hover on the modelClass finding")
	}
	md := hover.Contents.Value
	if !strings.Contains(md, "manifest-schema") || strings.Contains(strings.ToLower(md), "toolallowlist") || !strings.Contains(md, "--explain manifest-schema") {
		t.Errorf("hover on modelClass:\n%s\nwant manifest-schema explained without the toolAllowlist example, and where to find it", md)
	}
}
