package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/lsp/lsptest"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

const suggestManifest = `{
  "name": "community.acme.demo",
  "version": "1.0.0",
  "description": "Demo pack.",
  "license": "Apache 2",
  "engines": {"openwop": ">=1.1.0 <2.0.0"},
  "runtime": {"language": "remote", "entry": "pack.json"},
  "agents": [
    {
      "agentId": "community.acme.demo.helper",
      "persona": "Helper",
      "modelClass": "reasonin",
      "systemPrompt": "You help."
    }
  ]
}
`

// TestSuggestionQuickFixes: a did-you-mean on a modelClass, on a license
// and on a rule id in .wop.yaml is offered as the preferred quick fix,
// `Replace "old" with "new"`; applied by the client, the finding is gone.
func TestSuggestionQuickFixes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "community.acme.demo")
	manifest, cfg := filepath.Join(dir, "pack.json"), filepath.Join(dir, ".wop.yaml")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for path, text := range map[string]string{manifest: suggestManifest, cfg: "rules:\n  placeholder-left: error\n"} {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := start(t, dir)
	if err := s.Open(s.ctx, manifest, suggestManifest); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ code, title string }{
		{"manifest-schema", `Replace "reasonin" with "reasoning"`},
		{"license-not-spdx", `Replace "Apache 2" with "Apache-2.0"`},
	} {
		p, err := s.Diagnostics(s.ctx, manifest, func(p protocol.PublishDiagnosticsParams) bool { _, ok := find(p.Diagnostics, tt.code); return ok })
		if err != nil {
			t.Fatal(err)
		}
		d, _ := find(p.Diagnostics, tt.code)
		v := applyQuickFix(t, s, manifest, d, tt.title)
		p, err = s.Diagnostics(s.ctx, manifest, lsptest.AtVersion(v))
		if err != nil {
			t.Fatal(err)
		}
		if d, ok := find(p.Diagnostics, tt.code); ok {
			t.Errorf("after the quick fix: %s %s", tt.code, d.Message)
		}
	}

	bad := "rules:\n  placeholder-lef: error\n"
	if err := s.Open(s.ctx, cfg, bad); err != nil {
		t.Fatal(err)
	}
	p, err := s.Diagnostics(s.ctx, cfg, func(p protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) > 0 })
	if err != nil {
		t.Fatal(err)
	}
	v := applyQuickFix(t, s, cfg, p.Diagnostics[0], `Replace "placeholder-lef" with "placeholder-left"`)
	if _, err := s.Diagnostics(s.ctx, cfg, func(p protocol.PublishDiagnosticsParams) bool {
		return p.Version == uint32(v) && len(p.Diagnostics) == 0
	}); err != nil {
		t.Fatalf("the rule id's diagnostic stays after its quick fix: %v", err)
	}
}

// applyQuickFix asks for d's code actions, checks the first is the
// preferred quick fix titled title, applies its edit to the open document
// as a client does, and returns the document's new version.
func applyQuickFix(t *testing.T, s *session, path string, d protocol.Diagnostic, title string) int32 {
	t.Helper()
	var actions []codeAction
	if err := s.Call(s.ctx, protocol.MethodTextDocumentCodeAction, &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(path)},
		Range: d.Range, Context: protocol.CodeActionContext{Diagnostics: []protocol.Diagnostic{d}}}, &actions); err != nil {
		t.Fatal(err)
	}
	if len(actions) == 0 || actions[0].Title != title || !actions[0].IsPreferred || actions[0].Kind != protocol.QuickFix {
		var titles []string
		for _, a := range actions {
			titles = append(titles, a.Title)
		}
		t.Fatalf("%s: actions %q, want first the preferred quick fix %q", d.Message, strings.Join(titles, "; "), title)
	}
	edits := actions[0].Edit.Changes[uri.File(path)]
	if len(edits) != 1 {
		t.Fatalf("quick fix edits %+v, want one on %s", actions[0].Edit, path)
	}
	v, err := s.Change(s.ctx, path, lsptest.Edit{Range: &edits[0].Range, Text: edits[0].NewText})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestRefMissingQuickFix: a ref to a file the pack lacks, beside the file
// it meant ("prompts/note.md" by "prompts/notes.md"), is offered the
// preferred quick fix that names the file, not only "Ignore" (which build
// would then refuse); applied, the finding is gone.
func TestRefMissingQuickFix(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "community.acme.demo")
	manifest := filepath.Join(dir, "pack.json")
	text := strings.Replace(suggestManifest, `"systemPrompt": "You help."`, `"systemPromptRef": "prompts/note.md"`, 1)
	if err := os.MkdirAll(filepath.Join(dir, "prompts"), 0o755); err != nil {
		t.Fatal(err)
	}
	for path, data := range map[string]string{manifest: text, filepath.Join(dir, "prompts", "notes.md"): "You take notes.\n"} {
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := start(t, dir)
	if err := s.Open(s.ctx, manifest, text); err != nil {
		t.Fatal(err)
	}
	p, err := s.Diagnostics(s.ctx, manifest, func(p protocol.PublishDiagnosticsParams) bool { _, ok := find(p.Diagnostics, "ref-missing"); return ok })
	if err != nil {
		t.Fatal(err)
	}
	d, _ := find(p.Diagnostics, "ref-missing")
	v := applyQuickFix(t, s, manifest, d, `Replace "prompts/note.md" with "prompts/notes.md"`)
	p, err = s.Diagnostics(s.ctx, manifest, lsptest.AtVersion(v))
	if err != nil {
		t.Fatal(err)
	}
	if d, ok := find(p.Diagnostics, "ref-missing"); ok {
		t.Errorf("after the quick fix: ref-missing %s", d.Message)
	}
}
