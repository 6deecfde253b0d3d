package lint

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/tarball"
)

// TestRunMarksFixable: lint marks a finding --fix would fix, and not one of
// the same rule whose fix needs a person (a ref with a fragment).
func TestRunMarksFixable(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "community.acme.demo")
	files := map[string]string{
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
      "modelClass": "general",
      "systemPromptRef": "./prompts/helper.md",
      "handoff": {"taskSchemaRef": "./schemas/task.json#/x", "returnSchemaRef": "schemas/task.json"}
    }
  ]
}
`,
		"prompts/helper.md": "You are a helpful assistant for Acme.\n",
		"schemas/task.json": `{"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": "https://packs.openwop.dev/community.acme.demo/1.0.0/task.json", "type": "object"}`,
	}
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pk, err := pack.Load(dir, tarball.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := Run(pk, Options{})
	if err != nil {
		t.Fatal(err)
	}
	fixable := map[string]bool{}
	for _, d := range ds {
		if d.Rule == "ref-not-canonical" {
			fixable[d.Pointer] = d.Fixable
		} else if d.Fixable {
			t.Errorf("%s at %s marked fixable", d.Rule, d.Pointer)
		}
	}
	want := map[string]bool{"/agents/0/systemPromptRef": true, "/agents/0/handoff/taskSchemaRef": false}
	for ptr, w := range want {
		if got, ok := fixable[ptr]; !ok || got != w {
			t.Errorf("ref-not-canonical at %s: fixable %v (found %v), want %v; all: %v", ptr, got, ok, w, ds)
		}
	}
}

// TestSchemaIDRulesQuietOnBadName: with a malformed pack name, no rule
// advises (or --fix writes) an $id built from it; a missing $id is still
// reported, with the form to write once the name is fixed.
func TestSchemaIDRulesQuietOnBadName(t *testing.T) {
	files := []ExampleFile{
		{"pack.json", `{"name":"Community.Acme","version":"1.0.0","engines":{"openwop":">=1.1.0 <2.0.0"},
		  "runtime":{"language":"remote","entry":"pack.json"},
		  "agents":[{"agentId":"community.acme.demo.a","persona":"A","modelClass":"reasoning","systemPrompt":"Hi.","handoff":{"taskSchemaRef":"schemas/a.json","returnSchemaRef":"schemas/b.json"}}]}`},
		{"schemas/a.json", `{"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://packs.openwop.dev/community.acme.demo/1.0.0/a.json","type":"object"}`},
		{"schemas/b.json", `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object"}`},
	}
	missing := 0
	for _, d := range lintExample(t, files, tarball.DefaultLimits, "") {
		switch d.Rule {
		case "schema-id-mismatch", "schema-ref-version-drift":
			t.Errorf("%s: %s", d.Rule, d.Message)
		case "schema-id-missing":
			missing++
			if want := `schema has no $id; once the pack name is fixed, add "$id": "https://packs.openwop.dev/<pack name>/<version>/b.json" so hosts can cache and cross-reference it`; d.Message != want {
				t.Errorf("schema-id-missing: %q, want %q", d.Message, want)
			}
		}
	}
	if missing != 1 {
		t.Errorf("%d schema-id-missing findings, want 1", missing)
	}
}
