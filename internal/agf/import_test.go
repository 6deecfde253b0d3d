package agf_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	. "github.com/wop-cli/wop/internal/agf"
	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/lint"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/tarball"
	"github.com/wop-cli/wop/internal/testutil/golden"
)

func base(t testing.TB, name string) string {
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

const packJSON = `{
  "name": "community.acme.support",
  "version": "2.1.0",
  "description": "Support agents.",
  "license": "Apache-2.0",
  "engines": {"openwop": ">=1.1.0 <2.0.0"},
  "dependencies": {"community.acme.crm": "^1.0.0"},
  "runtime": {"language": "remote", "entry": "pack.json"}
}
`

// render lists the files an import writes and its losses, for golden files.
func render(im *Imported) []byte {
	var b strings.Builder
	var names []string
	for n := range im.Files {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		fmt.Fprintf(&b, "-- %s --\n%s", n, im.Files[n])
	}
	b.WriteString("-- losses --\n")
	for _, l := range im.Losses {
		fmt.Fprintf(&b, "%d %s: %s\n", l.Line, l.Pointer, l.What)
	}
	return []byte(b.String())
}

// TestImportGolden: YAML in, pack files out, and the round trip: the pack
// the import produces lints clean.
func TestImportGolden(t *testing.T) {
	src := base(t, "react.agf.yaml")
	im, err := Import([]byte(src), []byte(packJSON), ImportOptions{ModelClass: "classification",
		Tools: map[string]string{"lookup_customer": "openwop:community.acme.crm.lookup"}})
	if err != nil {
		t.Fatal(err)
	}
	golden.Assert(t, "golden/import-react.txt", render(im))

	dir := filepath.Join(t.TempDir(), "community.acme.support")
	for name, data := range im.Files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pk, err := pack.Load(dir, tarball.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := lint.Run(pk, lint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range ds {
		if d.Severity >= diag.Warning {
			t.Errorf("imported pack does not lint clean: %s %s: %s", d.File, d.Rule, d.Message)
		}
	}
}

func TestImportRefusals(t *testing.T) {
	react, team := base(t, "react.agf.yaml"), base(t, "team.agf.yaml")
	mapped := map[string]string{"lookup_customer": "openwop:community.acme.crm.lookup"}
	withApproval := strings.Replace(react, "      description: Find the customer's plan.\n", "      description: Find the customer's plan.\n      approval: true\n", 1)
	tests := []struct {
		name, src, want string
		opt             ImportOptions
	}{
		{"multi-agent policy", team, "multi-agent and vendor policies have no agents[] equivalent", ImportOptions{}},
		{"unmapped tool", react, "local tools lookup_customer need a mapping", ImportOptions{}},
		{"tool for no alias", react, `the file has no local tool "nope"`, ImportOptions{Tools: map[string]string{"lookup_customer": "openwop:a.b.c", "nope": "openwop:x.y.z"}}},
		{"approval", withApproval, "requires human approvals", ImportOptions{Tools: mapped}},
		{"bad id", react, "agent id segment", ImportOptions{Tools: mapped, AgentID: "Bad Id"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Import([]byte(tt.src), []byte(packJSON), tt.opt)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want %q", err, tt.want)
			}
		})
	}
	im, err := Import([]byte(withApproval), []byte(packJSON), ImportOptions{Tools: mapped, AcceptLoss: true})
	if err != nil || !im.Approval || !slices.ContainsFunc(im.Losses, func(l Loss) bool { return strings.HasSuffix(l.Pointer, "/approval") }) {
		t.Errorf("--accept-loss: %v %+v", err, im)
	}
}

// TestImportRefusesBeforeWriting: what cannot become a working pack agent is
// refused by Import itself, before the caller has anything to write.
func TestImportRefusesBeforeWriting(t *testing.T) {
	react := base(t, "react.agf.yaml")
	mapped := map[string]string{"lookup_customer": "openwop:community.acme.crm.lookup"}
	tests := []struct{ name, old, new, want string }{
		{"blank instructions", "    instructions: |\n      You triage customer support tickets. Use lookup_customer for the plan,\n      search the knowledge base, and return the area and urgency.\n",
			"    instructions: \"  \"\n", "instructions is blank"},
		{"remote $ref", "      ticket: {type: string, description: The customer's message.}\n",
			"      ticket: {$ref: \"https://example.com/ticket.json\"}\n", `$ref "https://example.com/ticket.json" points outside the file`},
		{"invalid interface schema", "    required: [area, urgency]\n", "    required: area\n", "interface.output is not a valid JSON Schema"},
		{"MCP server without allowed_tools", "      allowed_tools: [search]\n", "", "MCP servers kb list no allowed_tools"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !strings.Contains(react, tt.old) {
				t.Fatalf("fixture lacks %q", tt.old)
			}
			im, err := Import([]byte(strings.Replace(react, tt.old, tt.new, 1)), []byte(packJSON), ImportOptions{Tools: mapped})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want %q", err, tt.want)
			}
			if im != nil && im.Files["pack.json"] != nil {
				t.Error("a refused import still produced pack.json")
			}
		})
	}
}

// TestImportLosses: nothing is dropped without a line, and empty blocks are
// not reported as lost.
func TestImportLosses(t *testing.T) {
	react := base(t, "react.agf.yaml")
	mapped := map[string]string{"lookup_customer": "openwop:community.acme.crm.lookup"}
	has := func(im *Imported, ptr string) bool {
		return slices.ContainsFunc(im.Losses, func(l Loss) bool { return l.Pointer == ptr })
	}
	vendor := react + "x-acme:\n  team: support\nx-other: {tier: 2}\n"
	im, err := Import([]byte(vendor), []byte(packJSON), ImportOptions{Tools: mapped})
	if err != nil {
		t.Fatal(err)
	}
	for _, ptr := range []string{"/x-acme", "/x-other", "/action_space/mcp_servers/0/server_ref"} {
		if !has(im, ptr) {
			t.Errorf("no loss line for %s: %+v", ptr, im.Losses)
		}
	}
	// Whatever is neither carried nor named above still gets a line, at the
	// outermost member; settings that ask for nothing do not.
	extra := strings.Replace(react, "      allowed_tools: [search]\n", "      description: The knowledge base.\n      approval: false\n      allowed_tools: [search]\n", 1) +
		"memory: {required: false}\nconstraints: {custom: {a: 1, b: 2}}\n"
	if im, err = Import([]byte(extra), []byte(packJSON), ImportOptions{Tools: mapped}); err != nil {
		t.Fatal(err)
	}
	for _, ptr := range []string{"/action_space/mcp_servers/0/description", "/constraints"} {
		if !has(im, ptr) {
			t.Errorf("no loss line for %s: %+v", ptr, im.Losses)
		}
	}
	for _, ptr := range []string{"/memory/required", "/action_space/mcp_servers/0/approval", "/constraints/custom"} {
		if has(im, ptr) {
			t.Errorf("false alarm for %s", ptr)
		}
	}
	if i := slices.IndexFunc(im.Losses, func(l Loss) bool { return l.Pointer == "/action_space/mcp_servers/0/description" }); i < 0 || !strings.HasPrefix(im.Losses[i].What, "action_space.mcp_servers[0].description: ") {
		t.Errorf("the line does not name the field as YAML does: %+v", im.Losses)
	}
	toolless := strings.Replace(react, "      allowed_tools: [search]\n", "", 1)
	if im, err = Import([]byte(toolless), []byte(packJSON), ImportOptions{Tools: mapped, AcceptLoss: true}); err != nil || !has(im, "/action_space/mcp_servers/0") {
		t.Errorf("MCP server without allowed_tools under --accept-loss: %v %+v", err, im)
	}
	emptyBlocks := strings.Replace(react, "  license: Apache-2.0\n", "  license: Apache-2.0\n  labels: {}\n  annotations: {}\n", 1) +
		"constraints:\n  budget: {}\n  governance_policies: []\n"
	emptyBlocks = strings.Replace(emptyBlocks, "  mcp_servers:\n", "  local_agents: []\n  remote_agents: []\n  mcp_servers:\n", 1)
	if im, err = Import([]byte(emptyBlocks), []byte(packJSON), ImportOptions{Tools: mapped}); err != nil {
		t.Fatal(err)
	}
	for _, l := range im.Losses {
		if strings.Contains(l.Pointer, "labels") || strings.Contains(l.Pointer, "annotations") || strings.HasPrefix(l.Pointer, "/constraints") || strings.Contains(l.Pointer, "_agents") {
			t.Errorf("empty block reported as lost: %s: %s", l.Pointer, l.What)
		}
	}
}

// TestReimport: importing an agent the pack has updates its entry in place,
// keeping what the author added and the modelClass chosen before.
func TestReimport(t *testing.T) {
	react := base(t, "react.agf.yaml")
	mapped := map[string]string{"lookup_customer": "openwop:community.acme.crm.lookup"}
	first, err := Import([]byte(react), []byte(packJSON), ImportOptions{Tools: mapped, ModelClass: "classification"})
	if err != nil || first.Updated {
		t.Fatalf("first import: %v, updated %v", err, first != nil && first.Updated)
	}
	again, err := Import([]byte(react), first.Files["pack.json"], ImportOptions{Tools: mapped, ModelClass: "classification"})
	if err != nil || !again.Updated || !reflect.DeepEqual(again.Files, first.Files) {
		t.Errorf("re-importing the same file changed the files (or failed: %v)", err)
	}
	edited := strings.Replace(string(first.Files["pack.json"]), `"toolAllowlist"`, `"memoryShape": "conversation",`+"\n"+`      "toolAllowlist"`, 1)
	changed := strings.Replace(react, "Classifies support tickets by area and urgency.", "Classifies tickets.", 1)
	second, err := Import([]byte(changed), []byte(edited), ImportOptions{Tools: mapped})
	if err != nil {
		t.Fatal(err)
	}
	if !second.Updated || second.AgentID != first.AgentID {
		t.Fatalf("re-import: updated %v, agent %s", second.Updated, second.AgentID)
	}
	pj := string(second.Files["pack.json"])
	for _, want := range []string{`"description": "Classifies tickets."`, `"memoryShape": "conversation"`, `"modelClass": "classification"`} {
		if !strings.Contains(pj, want) {
			t.Errorf("re-imported pack.json lacks %s:\n%s", want, pj)
		}
	}
	if n := strings.Count(pj, `"agentId"`); n != 1 {
		t.Errorf("pack.json has %d agents after a re-import, want 1", n)
	}
}

// FuzzImport: any AgentFormat input either is refused or yields a pack.json
// that parses and still names the pack, handoff schemas that parse, and a
// loss line for every field inside the file.
func FuzzImport(f *testing.F) {
	f.Add([]byte(base(f, "react.agf.yaml")))
	f.Add([]byte("schema_version: \"1.0.0\"\nmetadata: {id: a, name: A}\ninterface: {input: {type: object}, output: {type: object}}\nexecution_policy: {id: agf.react, config: {instructions: x, model: m}}\nx-a: {b: [1]}\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		im, err := Import(src, []byte(packJSON), ImportOptions{AcceptLoss: true})
		if err != nil {
			return
		}
		for name, data := range im.Files {
			if strings.HasSuffix(name, ".json") && !json.Valid(data) {
				t.Fatalf("%s is not JSON:\n%s", name, data)
			}
		}
		if !strings.Contains(string(im.Files["pack.json"]), `"name": "community.acme.support"`) {
			t.Fatalf("pack.json lost the pack's name:\n%s", im.Files["pack.json"])
		}
		lines := 1 + strings.Count(string(src), "\n") + strings.Count(string(src), "\r")
		for _, l := range im.Losses {
			if l.Line < 1 || l.Line > lines {
				t.Fatalf("loss at line %d of a %d-line file: %+v", l.Line, lines, l)
			}
		}
	})
}

// TestImportRefusesBrokenManifest: a pack.json the rewrite would change
// silently (a member written twice keeps one copy) or cannot read is
// refused at its line and column, with nothing to write.
func TestImportRefusesBrokenManifest(t *testing.T) {
	react := base(t, "react.agf.yaml")
	mapped := map[string]string{"lookup_customer": "openwop:community.acme.crm.lookup"}
	tests := []struct {
		name, manifest string
		want           ManifestError
	}{
		{"top-level duplicate", "{\n  \"name\": \"community.acme.support\",\n  \"version\": \"1.0.0\",\n  \"name\": \"x\"\n}",
			ManifestError{Pos: jsonpos.Position{Line: 4, Column: 3}, Msg: `member "name" appears twice in the top-level object; the import rewrites pack.json and would keep only one: delete the other, then import again`}},
		{"nested duplicate", "{\"name\": \"community.acme.support\", \"version\": \"1.0.0\",\n \"runtime\": {\"entry\": \"a\", \"entry\": \"b\"}}",
			ManifestError{Pos: jsonpos.Position{Line: 2, Column: 28}, Msg: `member "entry" appears twice in /runtime; the import rewrites pack.json and would keep only one: delete the other, then import again`}},
		{"not JSON", "{\"name\": \"community.acme.support\",\n \"version\": }",
			ManifestError{Pos: jsonpos.Position{Line: 2, Column: 13}, Msg: "unexpected '}' where a value belongs; fix pack.json before importing"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			im, err := Import([]byte(react), []byte(tt.manifest), ImportOptions{Tools: mapped})
			var me *ManifestError
			if !errors.As(err, &me) || *me != tt.want {
				t.Fatalf("err = %#v, want %#v", err, &tt.want)
			}
			if im != nil {
				t.Error("a refused import still produced files")
			}
		})
	}
}
