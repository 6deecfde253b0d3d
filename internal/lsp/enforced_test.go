package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/wop-cli/wop/internal/lsp/lsptest"
)

// TestNoIgnoreForEnforcedRules: the editor offers no "Ignore" for a
// finding build and publish refuse whatever .wop.yaml says (the issue's
// trial: an agent's modelClass misspelt, and JSON that does not parse),
// and still offers it for a warning.
func TestNoIgnoreForEnforcedRules(t *testing.T) {
	root := t.TempDir()
	packs := map[string]string{
		"community.acme.trial": `{"name": "community.acme.trial", "version": "1.0.0", "engines": {"openwop": ">=1.1.0 <2.0.0"}, "license": "Apache 2",
 "runtime": {"language": "remote", "entry": "pack.json"},
 "agents": [{"agentId": "community.acme.trial.a", "persona": "A", "modelClass": "reasonin", "systemPrompt": "Hi."}]}
`,
		"community.acme.broken": `{"name": "community.acme.broken", "version": "1.0.0",}
`,
	}
	for name, text := range packs {
		if err := os.MkdirAll(filepath.Join(root, name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, name, "pack.json"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := start(t, root)
	opened := map[string]bool{}
	ignores := func(name, rule string) []string {
		t.Helper()
		manifest := filepath.Join(root, name, "pack.json")
		if !opened[name] {
			if err := s.Open(s.ctx, manifest, packs[name]); err != nil {
				t.Fatal(err)
			}
			opened[name] = true
		}
		p, err := s.Diagnostics(s.ctx, manifest, lsptest.AtVersion(1))
		if err != nil {
			t.Fatal(err)
		}
		d, ok := find(p.Diagnostics, rule)
		if !ok {
			t.Fatalf("%s: diagnostics = %s, want %s", name, codes(p.Diagnostics), rule)
		}
		var actions []codeAction
		if err := s.Call(s.ctx, protocol.MethodTextDocumentCodeAction, &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(manifest)},
			Range: d.Range, Context: protocol.CodeActionContext{Diagnostics: []protocol.Diagnostic{d}}}, &actions); err != nil {
			t.Fatal(err)
		}
		var titles []string
		for _, a := range actions {
			if strings.HasPrefix(a.Title, "Ignore ") && a.Diagnostics[0].Code == rule {
				titles = append(titles, a.Title)
			}
		}
		return titles
	}
	if got := ignores("community.acme.trial", "manifest-schema"); len(got) != 0 {
		t.Errorf("manifest-schema offers %q; build and publish would refuse it anyway", got)
	}
	if got := ignores("community.acme.trial", "license-not-spdx"); len(got) != 1 || got[0] != "Ignore license-not-spdx in pack.json (.wop.yaml)" {
		t.Errorf("license-not-spdx offers %q, want its ignore", got)
	}
	if got := ignores("community.acme.broken", "json-invalid"); len(got) != 0 {
		t.Errorf("json-invalid offers %q; build and publish would refuse it anyway", got)
	}
}

// TestOverrideWarningInEditor: an entry of .wop.yaml that ignores or lowers
// an enforced rule gets, at its line, the warning lint prints (it holds for
// lint only): open alone, and once however many packs below it are open.
func TestOverrideWarningInEditor(t *testing.T) {
	root := t.TempDir()
	cfg := "rules:\n  manifest-schema:\n    ignore: [pack.json]\n  license-not-spdx: off\n"
	if err := os.WriteFile(filepath.Join(root, ".wop.yaml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	var manifests []string
	for _, name := range []string{"community.acme.one", "community.acme.two"} {
		manifest := filepath.Join(root, name, "pack.json")
		text := `{"name": "` + name + `", "version": "1.0.0", "engines": {"openwop": ">=1.1.0 <2.0.0"}, "license": "MIT",
 "runtime": {"language": "remote", "entry": "pack.json"}}
`
		if err := os.MkdirAll(filepath.Dir(manifest), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(manifest, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		manifests = append(manifests, manifest)
	}
	s := start(t, root)
	config := filepath.Join(root, ".wop.yaml")
	checkOne := func(when string) {
		t.Helper()
		p, err := s.Diagnostics(s.ctx, config, func(p protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) > 0 })
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Diagnostics) != 1 {
			t.Fatalf("%s: .wop.yaml diagnostics = %+v, want the one warning", when, p.Diagnostics)
		}
		d := p.Diagnostics[0]
		if d.Severity != protocol.DiagnosticSeverityWarning || d.Range.Start.Line != 2 || d.Range.Start.Character != 4 ||
			!strings.HasPrefix(d.Message, "rules.manifest-schema.ignore holds for lint only") {
			t.Errorf("%s: .wop.yaml diagnostic = %+v, want the warning at 3:5", when, d)
		}
	}
	if err := s.Open(s.ctx, config, cfg); err != nil {
		t.Fatal(err)
	}
	checkOne("the configuration open alone")
	for _, m := range manifests {
		text, _ := os.ReadFile(m)
		if err := s.Open(s.ctx, m, string(text)); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Diagnostics(s.ctx, m, lsptest.AtVersion(1)); err != nil {
			t.Fatal(err)
		}
	}
	checkOne("two packs below it open")
}
