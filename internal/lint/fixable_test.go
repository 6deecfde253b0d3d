package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/tarball"
	"github.com/wop-cli/wop/internal/testutil/filetree"
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
	filetree.Write(t, dir, files)
	_, ds := lintPath(t, dir)
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

// manyFixable writes a pack whose n agents each name their prompt "./p.md":
// n ref-not-canonical findings, each with a fix, in one pack.json whose
// size grows with n.
func manyFixable(t testing.TB, n int) *pack.Pack {
	t.Helper()
	var agents []string
	for i := range n {
		agents = append(agents, fmt.Sprintf(`{"agentId": "community.acme.demo.a%d", "persona": "A", "modelClass": "general", "systemPromptRef": "./p.md"}`, i))
	}
	dir := filepath.Join(t.TempDir(), "community.acme.demo")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	man := `{"name": "community.acme.demo", "version": "1.0.0", "description": "Demo.", "license": "MIT",
  "engines": {"openwop": ">=1.1.0 <2.0.0"}, "runtime": {"language": "remote", "entry": "pack.json"},
  "agents": [
    ` + strings.Join(agents, ",\n    ") + `
  ]
}
`
	for name, data := range map[string]string{"pack.json": man, "p.md": "You help.\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pk, err := pack.Load(dir, tarball.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	return pk
}

// markFixableAllocs is what marking n findings fixable allocates, the
// pass's parse of pack.json done before.
func markFixableAllocs(t *testing.T, n int) float64 {
	pk := manyFixable(t, n)
	ds, err := Run(pk, Options{})
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, d := range ds {
		if d.Rule == "ref-not-canonical" && d.Fixable {
			found++
		}
	}
	if found != n {
		t.Fatalf("%d fixable ref-not-canonical findings, want %d", found, n)
	}
	p := &Pass{Pack: pk, Profile: Profile{SchemaBase: DefaultSchemaBase}, json: map[string]*jsonFile{}, files: map[string]fileRead{}}
	if p.Manifest, _, err = p.JSON(pack.ManifestName); err != nil {
		t.Fatal(err)
	}
	rules := All()
	return testing.AllocsPerRun(5, func() { markFixable(p, ds, rules) })
}

// TestMarkFixableLinear: marking findings fixable costs per finding a
// lookup in the file the pass parsed, not a parse and an edit of the whole
// file: eight times the findings (in an eight times larger file) cost about
// eight times the allocations, where fixing each to see whether it changed
// anything cost sixty-four times.
func TestMarkFixableLinear(t *testing.T) {
	small, large := markFixableAllocs(t, 50), markFixableAllocs(t, 400)
	t.Logf("markFixable allocations: %.0f for 50 findings, %.0f for 400", small, large)
	if large > 12*max(small, 1) {
		t.Errorf("markFixable: %.0f allocations for 400 findings, %.0f for 50: more than linear", large, small)
	}
}

// BenchmarkMarkFixable lints a pack with 400 fixable findings (go test
// -bench MarkFixable ./internal/lint; compare with a build whose
// markFixable applied every fix to learn whether it changed the file).
func BenchmarkMarkFixable(b *testing.B) {
	pk := manyFixable(b, 400)
	for b.Loop() {
		if _, err := Run(pk, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
