package lint

import (
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/tarball"
	"github.com/wop-cli/wop/internal/testutil/filetree"
)

// suggestPack is a valid agent pack with a handoff schema and an
// AgentFormat file, which each case below spoils in one place.
var suggestPack = map[string]string{
	"pack.json": `{
  "name": "community.acme.demo",
  "version": "1.0.0",
  "description": "Demo pack.",
  "license": "Apache-2.0",
  "engines": {"openwop": ">=1.1.0 <2.0.0"},
  "runtime": {"language": "remote", "entry": "pack.json"},
  "agents": [
    {
      "agentId": "community.acme.demo.helper",
      "persona": "Helper",
      "modelClass": "reasoning",
      "systemPrompt": "You help.",
      "handoff": {"taskSchemaRef": "schemas/task.json", "returnSchemaRef": "schemas/task.json"}
    }
  ]
}
`,
	"schemas/task.json": `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://packs.openwop.dev/community.acme.demo/1.0.0/task.json",
  "type": "object",
  "properties": {"text": {"type": "string", "format": "email"}},
  "required": ["text"]
}
`,
	"helper.agf.yaml": `schema_version: "1.0.0"
metadata:
  id: helper
  name: Helper
  version: "1.0.0"
  description: Answers questions.
interface:
  input: {type: object, properties: {question: {type: string}}}
  output: {type: object, properties: {answer: {type: string}}}
execution_policy:
  id: agf.react
  config:
    instructions: Answer the question.
    model: gpt-4o
    tool_choice: auto
    max_steps: 5
`,
}

// TestSuggestionFixes: every did-you-mean site gives its finding the
// replacement it names; applied (as the editor's quick fix applies it) the
// file reads as it should, and --fix (Fixes) applies it exactly when the
// finding is Fixable.
func TestSuggestionFixes(t *testing.T) {
	tests := []struct {
		name, rule, file, old, bad string
		fixable                    bool
	}{
		{"modelClass enum", "manifest-schema", "pack.json", `"modelClass": "reasoning"`, `"modelClass": "reasonin"`, true},
		{"manifest property", "manifest-schema", "pack.json", `"systemPrompt": "You help.",`, `"systemPrompt": "You help.", "toolAllowList": [],`, true},
		{"license respelt", "license-not-spdx", "pack.json", `"license": "Apache-2.0"`, `"license": "Apache 2"`, true},
		{"license GNU: the author's grant", "license-not-spdx", "pack.json", `"license": "Apache-2.0"`, `"license": "GPLv3"`, false},
		{"license one letter off: a guess", "license-not-spdx", "pack.json", `"license": "Apache-2.0"`, `"license": "BSD-3-Clauses"`, false},
		{"schema keyword", "schema-unknown-keyword", "schemas/task.json", `"required": ["text"]`, `"requried": ["text"]`, true},
		{"schema format", "schema-format-unknown", "schemas/task.json", `"format": "email"`, `"format": "emial"`, true},
		{"agf unknown field", "agf-unknown-field", "helper.agf.yaml", "max_steps: 5", "max_step: 5", true},
		{"agf quoted key", "agf-unknown-field", "helper.agf.yaml", "max_steps: 5", "'max_step': 5", true},
		{"agf schema enum", "agf-schema", "helper.agf.yaml", "tool_choice: auto", "tool_choice: \"requird\"", true},
		{"ref respelt", "ref-missing", "pack.json", `"taskSchemaRef": "schemas/task.json"`, `"taskSchemaRef": "schemas/tasks.json"`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			good := suggestPack[tt.file]
			if !strings.Contains(good, tt.old) {
				t.Fatalf("%s holds no %q", tt.file, tt.old)
			}
			bad := strings.Replace(good, tt.old, tt.bad, 1)
			pk, ds := lintSuggestPack(t, map[string]string{tt.file: bad})
			var d diag.Diagnostic
			for _, x := range ds {
				if x.Rule == tt.rule && strings.Contains(x.Message, "did you mean") {
					d = x
				}
			}
			if d.Rule == "" || d.Fix.IsZero() {
				t.Fatalf("no %s finding with a fix: %+v", tt.rule, ds)
			}
			if d.Fixable != tt.fixable {
				t.Errorf("Fixable = %v, want %v (%s)", d.Fixable, tt.fixable, d.Message)
			}
			out, ok, err := ApplyFix([]byte(bad), d.Fix)
			if err != nil || !ok {
				t.Fatalf("ApplyFix(%+v) = %v, %v", d.Fix, ok, err)
			}
			want := good
			if tt.name == "manifest property" {
				want = strings.Replace(good, tt.old, `"systemPrompt": "You help.", "toolAllowlist": [],`, 1)
			}
			if tt.name == "agf quoted key" {
				want = strings.Replace(good, tt.old, "'max_steps': 5", 1)
			}
			if tt.name == "agf schema enum" {
				want = strings.Replace(good, tt.old, "tool_choice: \"required\"", 1)
			}
			if strings.HasPrefix(tt.name, "license") {
				want = strings.Replace(good, tt.old, `"license": "`+d.Fix.New+`"`, 1)
			}
			if string(out) != want {
				t.Errorf("fixed %s:\n%s\nwant:\n%s", tt.file, out, want)
			}
			fixes, err := Fixes(pk, ds)
			if err != nil {
				t.Fatal(err)
			}
			applied := len(fixes) == 1 && fixes[0].Name == tt.file && string(fixes[0].New) == want
			if applied != tt.fixable || !tt.fixable && len(fixes) > 0 {
				t.Errorf("--fix: %d files (%+v), want the fix applied: %v", len(fixes), fixes, tt.fixable)
			}
		})
	}
}

// lintSuggestPack writes suggestPack with the files in over replaced,
// and lints it.
func lintSuggestPack(t *testing.T, over map[string]string) (*pack.Pack, []diag.Diagnostic) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "community.acme.demo")
	files := maps.Clone(suggestPack)
	maps.Copy(files, over)
	filetree.Write(t, dir, files)
	return lintPath(t, dir)
}

// TestSuggestPackClean: the pack the cases spoil has no finding with a
// fix of its own, so each case's fix is the one it made.
func TestSuggestPackClean(t *testing.T) {
	_, ds := lintSuggestPack(t, nil)
	for _, d := range ds {
		if !d.Fix.IsZero() || d.Fixable {
			t.Errorf("clean pack: %s %s carries a fix", d.Rule, d.Message)
		}
	}
}

// TestChainConfigSuggestionFix: a chain node's config value misspelt
// against the config schema of the node type it runs (another pack's,
// from the catalog) carries its did-you-mean as a fix too.
func TestChainConfigSuggestionFix(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("catalog", "chain-config-invalid.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	doc := parseRuleDoc(raw)
	var files []ExampleFile
	for _, f := range doc.Bad {
		if f.Name == "pack.json" {
			if !strings.Contains(f.Data, `"fax"`) {
				t.Fatal(`the example's pack.json has no "fax"`)
			}
			f.Data = strings.Replace(f.Data, `"fax"`, `"emial"`, 1)
		}
		files = append(files, f)
	}
	ex := example{lim: tarball.DefaultLimits, rule: "chain-config-invalid", catalog: exampleCatalog(t, doc.Catalog)}
	for _, d := range ex.lint(t, files) {
		if strings.Contains(d.Message, `did you mean "email"`) {
			if d.Fix.Old != "emial" || d.Fix.New != "email" || !d.Fixable {
				t.Errorf("fix %+v (fixable %v), want emial -> email, fixable", d.Fix, d.Fixable)
			}
			return
		}
	}
	t.Error(`no chain-config-invalid finding says did you mean "email"`)
}
