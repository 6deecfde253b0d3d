package lsp

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// TestLicenseCompletionCommonFirst: an editor sorting the license items by
// sortText shows MIT and Apache-2.0 first, not AAL.
func TestLicenseCompletionCommonFirst(t *testing.T) {
	dir := copyExample(t)
	s := start(t, dir)
	manifest := filepath.Join(dir, "pack.json")
	text := `{"license": ""}`
	if err := s.Open(s.ctx, manifest, text); err != nil {
		t.Fatal(err)
	}
	var list protocol.CompletionList
	at := protocol.Position{Line: 0, Character: uint32(strings.Index(text, `""`) + 1)}
	if err := s.Call(s.ctx, protocol.MethodTextDocumentCompletion, &protocol.CompletionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(manifest)}, Position: at}}, &list); err != nil {
		t.Fatal(err)
	}
	items := slices.Clone(list.Items)
	slices.SortStableFunc(items, func(a, b protocol.CompletionItem) int {
		return strings.Compare(a.SortText+"\x00"+a.Label, b.SortText+"\x00"+b.Label)
	})
	if len(items) < 100 || items[0].Label != "MIT" || items[1].Label != "Apache-2.0" {
		t.Fatalf("first license items by sortText: %d items, %v", len(items), labels(items[:min(3, len(items))]))
	}
}

func labels(items []protocol.CompletionItem) []string {
	var out []string
	for _, it := range items {
		out = append(out, it.Label)
	}
	return out
}
