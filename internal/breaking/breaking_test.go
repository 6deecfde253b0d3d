package breaking

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/testutil/filetree"

	"github.com/wop-cli/wop/internal/jsonedit"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/tarball"
	"github.com/wop-cli/wop/internal/testutil/golden"
)

// base is the old release every case starts from.
func base() map[string]string {
	return map[string]string{
		"pack.json": `{
  "name": "acme.tools",
  "version": "1.2.0",
  "kind": "node",
  "description": "Tools.",
  "engines": {"openwop": ">=1.0.0 <2.0.0"},
  "peerDependencies": {"aiProviders": "supported"},
  "runtime": {"language": "javascript", "entry": "index.mjs", "format": "esm", "minRuntimeVersion": "node>=20", "requires": ["network"]},
  "nodes": [
    {"typeId": "acme.tools.fetch", "version": "1.0.0", "role": "side-effect", "category": "io",
     "configSchemaRef": "schemas/fetch.config.json", "inputSchemaRef": "schemas/fetch.input.json", "outputSchemaRef": "schemas/fetch.output.json",
     "requiresSecrets": [{"id": "token", "kind": "api-key"}], "requiredModelCapabilities": ["tools"]},
    {"typeId": "acme.tools.parse", "version": "1.0.0", "role": "pure", "category": "data"}
  ],
  "agents": [
    {"agentId": "acme.tools.helper", "role": "skill", "systemPromptRef": "prompts/helper.md",
     "toolAllowlist": ["openwop:acme.tools.fetch", "openwop:acme.tools.parse"],
     "handoff": {"taskSchemaRef": "schemas/task.json", "returnSchemaRef": "schemas/return.json"}}
  ],
  "chains": [
    {"chainId": "acme.tools.pipeline", "version": "1.0.0",
     "parameters": {"type": "object", "properties": {"url": {"type": "string"}}, "required": ["url"]},
     "dag": {"nodes": [{"id": "a", "typeId": "acme.tools.fetch"}], "edges": []},
     "outputs": {"body": {"type": "string"}}}
  ],
  "templates": [{"templateId": "acme.tools.greeting", "text": "Hello"}]
}
`,
		"schemas/fetch.config.json": `{
  "$id": "https://packs.openwop.dev/acme.tools/1.2.0/fetch.config.json",
  "title": "Fetch config",
  "type": "object",
  "properties": {
    "method": {"type": "string", "enum": ["GET", "POST"], "description": "HTTP method"},
    "timeout": {"type": "integer", "minimum": 0, "maximum": 60},
    "mode": {"$ref": "#/$defs/mode"}
  },
  "additionalProperties": false,
  "$defs": {"mode": {"enum": ["fast", "safe"]}}
}
`,
		"schemas/fetch.input.json":  `{"type": "object", "properties": {"url": {"type": "string"}}, "required": ["url"]}`,
		"schemas/fetch.output.json": `{"type": "object", "properties": {"status": {"type": "integer"}, "body": {"type": "string"}}, "required": ["status", "body"]}`,
		"schemas/task.json":         `{"type": "object", "properties": {"question": {"type": "string", "maxLength": 1000}}}`,
		"schemas/return.json":       `{"type": "object", "properties": {"answer": {"type": "string"}}, "required": ["answer"]}`,
		"prompts/helper.md":         "You help.\n",
		"index.mjs":                 "export default {};\n",
	}
}

// edit is one change to the new release: set (or, with del, remove) the
// value at ptr in file.
type edit struct {
	file, ptr string
	value     any
	del       bool
}

func set(ptr string, v any) edit         { return edit{file: "pack.json", ptr: ptr, value: v} }
func setIn(file, ptr string, v any) edit { return edit{file: "schemas/" + file, ptr: ptr, value: v} }
func del(ptr string) edit                { return edit{file: "pack.json", ptr: ptr, del: true} }
func delIn(file, ptr string) edit        { return edit{file: "schemas/" + file, ptr: ptr, del: true} }
func version(v string) edit              { return set("/version", v) }
func file(name, data string) edit        { return edit{file: name, value: data} }
func (e edit) apply(files map[string]string) error {
	if e.ptr == "" {
		files[e.file] = e.value.(string)
		return nil
	}
	var out []byte
	var err error
	if e.del {
		out, err = jsonedit.Delete([]byte(files[e.file]), e.ptr)
	} else {
		out, err = jsonedit.Set([]byte(files[e.file]), e.ptr, e.value)
	}
	files[e.file] = string(out)
	return err
}

func writePack(t *testing.T, dir string, files map[string]string) *pack.Pack {
	t.Helper()
	filetree.Write(t, dir, files)
	pk, err := pack.Load(dir, tarball.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	pk.Display = filepath.Base(dir)
	return pk
}

var cases = []struct {
	name   string
	old    []edit // to the old release, before edits apply to both
	edits  []edit
	rules  []string // expected rule ids, sorted, without duplicates
	needed Bump
}{
	{"identical", nil, nil, nil, None},
	{"version only", nil, []edit{version("1.2.1")}, nil, None},
	{"description is a patch", nil, []edit{version("1.2.1"), set("/description", "Better tools.")}, nil, Patch},
	{"docs keywords never count", nil, []edit{version("1.2.1"), setIn("fetch.config.json", "/$id", "https://packs.openwop.dev/acme.tools/1.2.1/fetch.config.json"), setIn("fetch.config.json", "/title", "x"), setIn("fetch.config.json", "/properties/method/description", "verb"), setIn("fetch.config.json", "/examples", []string{"a"})}, nil, Patch},
	{"node removed", nil, []edit{version("1.2.1"), del("/nodes/1")}, []string{"node-removed", "version-bump-insufficient"}, Major},
	{"node renamed", nil, []edit{version("2.0.0"), set("/nodes/1/typeId", "acme.tools.parser")}, []string{"node-removed"}, Major},
	{"agent removed", nil, []edit{version("2.0.0"), del("/agents/0")}, []string{"agent-removed"}, Major},
	{"chain removed", nil, []edit{version("2.0.0"), del("/chains/0")}, []string{"chain-removed"}, Major},
	{"template removed", nil, []edit{version("2.0.0"), del("/templates/0")}, []string{"template-removed"}, Major},
	{"config new required", nil, []edit{version("1.3.0"), setIn("fetch.config.json", "/required", []string{"method"})}, []string{"contract-version-unchanged", "node-config-accepts-less", "version-bump-insufficient"}, Major},
	{"config enum narrowed", nil, []edit{version("2.0.0"), set("/nodes/0/version", "2.0.0"), setIn("fetch.config.json", "/properties/method/enum", []string{"GET"})}, []string{"node-config-accepts-less"}, Major},
	{"config enum via $ref narrowed", nil, []edit{version("2.0.0"), set("/nodes/0/version", "2.0.0"), setIn("fetch.config.json", "/$defs/mode/enum", []string{"fast"})}, []string{"node-config-accepts-less"}, Major},
	{"config type narrowed", nil, []edit{version("2.0.0"), set("/nodes/0/version", "2.0.0"), setIn("fetch.config.json", "/properties/timeout/type", "string")}, []string{"node-config-accepts-less"}, Major},
	{"config bound narrowed", nil, []edit{version("2.0.0"), set("/nodes/0/version", "2.0.0"), setIn("fetch.config.json", "/properties/timeout/maximum", 30)}, []string{"node-config-accepts-less"}, Major},
	{"config bound widened", nil, []edit{version("1.3.0"), set("/nodes/0/version", "1.1.0"), setIn("fetch.config.json", "/properties/timeout/maximum", 90)}, nil, Patch},
	{"config closed prop removed", nil, []edit{version("2.0.0"), set("/nodes/0/version", "2.0.0"), delIn("fetch.config.json", "/properties/timeout")}, []string{"node-config-accepts-less"}, Major},
	{"input pattern added", nil, []edit{version("2.0.0"), set("/nodes/0/version", "2.0.0"), setIn("fetch.input.json", "/properties/url/pattern", "^https://")}, []string{"node-input-accepts-less"}, Major},
	{"output field optional", nil, []edit{version("2.0.0"), set("/nodes/0/version", "2.0.0"), setIn("fetch.output.json", "/required", []string{"status"})}, []string{"node-output-guarantees-less"}, Major},
	{"output type widened", nil, []edit{version("2.0.0"), set("/nodes/0/version", "2.0.0"), setIn("fetch.output.json", "/properties/status/type", []string{"integer", "string"})}, []string{"node-output-guarantees-less"}, Major},
	{"output narrowed is fine", nil, []edit{version("1.2.1"), set("/nodes/0/version", "1.0.1"), setIn("fetch.output.json", "/properties/status/minimum", 100)}, nil, Patch},
	{"agent task narrowed", nil, []edit{version("2.0.0"), setIn("task.json", "/properties/question/maxLength", 100)}, []string{"agent-task-accepts-less"}, Major},
	{"agent return loosened", nil, []edit{version("2.0.0"), delIn("return.json", "/required")}, []string{"agent-return-guarantees-less"}, Major},
	{"chain parameter renamed to a required one", nil, []edit{version("1.2.1"), set("/chains/0/parameters/properties", map[string]any{"href": map[string]string{"type": "string"}}), set("/chains/0/parameters/required", []string{"href"})}, []string{"chain-parameters-accept-less", "contract-version-unchanged", "version-bump-insufficient"}, Major},
	{"chain output removed", nil, []edit{version("2.0.0"), set("/chains/0/version", "2.0.0"), set("/chains/0/outputs", map[string]any{})}, []string{"chain-output-removed"}, Major},
	{"kind changed", nil, []edit{version("2.0.0"), set("/kind", "workflow-chain")}, []string{"kind-changed"}, Major},
	{"engines narrowed", nil, []edit{version("1.3.0"), set("/engines/openwop", ">=1.1.0 <2.0.0")}, []string{"engines-narrowed"}, Minor},
	{"engines widened", nil, []edit{version("1.2.1"), set("/engines/openwop", ">=1.0.0 <3.0.0")}, nil, Patch},
	{"peer dependency added", nil, []edit{version("1.2.1"), set("/peerDependencies/host.chat", "supported")}, []string{"peer-dependency-added", "version-bump-insufficient"}, Minor},
	{"optional peer dependency", nil, []edit{version("1.2.1"), set("/peerDependencies/host.chat", "supported"), set("/peerDependenciesMeta", map[string]any{"host.chat": map[string]bool{"optional": true}})}, nil, Patch},
	{"runtime requirement added", nil, []edit{version("1.3.0"), set("/runtime/requires/-", "filesystem")}, []string{"runtime-requirement-added"}, Minor},
	{"secret added", nil, []edit{version("1.3.0"), set("/nodes/0/requiresSecrets/-", map[string]string{"id": "other", "kind": "api-key"})}, []string{"secret-added"}, Minor},
	{"credential added", nil, []edit{version("1.3.0"), set("/nodes/1/requiredCredentials", []map[string]string{{"key": "gh"}})}, []string{"secret-added"}, Minor},
	{"model capability added", nil, []edit{version("1.3.0"), set("/nodes/0/requiredModelCapabilities/-", "vision")}, []string{"model-capability-added"}, Minor},
	{"chain needs unprovided node", nil, []edit{version("1.3.0"), set("/chains/0/dag/nodes/-", map[string]string{"id": "b", "typeId": "other.pack.thing"})}, []string{"chain-node-unprovided", "dag-changed"}, Minor},
	{"chain node from a dependency", nil, []edit{version("1.2.1"), set("/dependencies", map[string]string{"other.pack": "^1.0.0"}), set("/chains/0/dag/nodes/-", map[string]string{"id": "b", "typeId": "other.pack.thing"})}, []string{"dag-changed"}, Patch},
	{"node role changed", nil, []edit{version("1.3.0"), set("/nodes/1/role", "side-effect")}, []string{"role-changed"}, Minor},
	{"moved node is matched by typeId", nil, []edit{version("1.3.0"), del("/nodes/0"), set("/nodes/-", map[string]string{"typeId": "acme.tools.fetch", "version": "1.0.0", "role": "pure", "category": "io", "outputSchemaRef": "schemas/fetch.output.json"})}, []string{"role-changed"}, Minor},
	{"output schema dropped", nil, []edit{version("2.0.0"), set("/nodes/0/version", "2.0.0"), del("/nodes/0/outputSchemaRef")}, []string{"node-output-guarantees-less"}, Major},
	{"agent lost skill role", nil, []edit{version("1.2.1"), del("/agents/0/role")}, []string{"role-changed", "version-bump-insufficient"}, Minor},
	{"info changes", nil, []edit{version("1.2.1"), set("/agents/0/toolAllowlist", []string{"openwop:acme.tools.fetch"}), file("prompts/helper.md", "You help well.\n"), set("/nodes/1/category", "text"), set("/templates/0/text", "Hi")}, []string{"allowlist-narrowed", "category-changed", "prompt-changed"}, Patch},
	{"addition needs minor", nil, []edit{version("1.2.1"), set("/nodes/-", map[string]string{"typeId": "acme.tools.new", "version": "1.0.0"})}, []string{"version-bump-insufficient"}, Minor},
	{"addition in minor", nil, []edit{version("1.3.0"), set("/nodes/-", map[string]string{"typeId": "acme.tools.new", "version": "1.0.0"})}, nil, Minor},
	{"same version other bytes", nil, []edit{file("prompts/helper.md", "Changed.\n")}, []string{"prompt-changed", "published-version-mutated"}, Patch},
	{"version went down", nil, []edit{version("1.1.0")}, []string{"version-bump-insufficient"}, None},
	{"0.x minor is the breaking step", []edit{version("0.2.0")}, []edit{version("0.3.0"), del("/nodes/1")}, []string{"node-removed"}, Major},
	{"0.x patch is not", []edit{version("0.2.0")}, []edit{version("0.2.1"), del("/nodes/1")}, []string{"node-removed", "version-bump-insufficient"}, Major},
	{"0.0.x patch is breaking", []edit{version("0.0.3")}, []edit{version("0.0.4"), del("/nodes/1")}, []string{"node-removed"}, Major},
}

func TestCatalogProvidesChainNodes(t *testing.T) {
	oldFiles, newFiles := base(), base()
	if err := set("/chains/0/dag/nodes/-", map[string]string{"id": "b", "typeId": "other.pack.thing"}).apply(newFiles); err != nil {
		t.Fatal(err)
	}
	oldPk := writePack(t, filepath.Join(t.TempDir(), "old"), oldFiles)
	newPk := writePack(t, filepath.Join(t.TempDir(), "new"), newFiles)
	res, err := Compare(oldPk, newPk, Options{Provides: func(id string) bool { return id == "other.pack.thing" }})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range res.Changes {
		if c.Rule == "chain-node-unprovided" {
			t.Errorf("a node type the catalog provides was reported: %s", c.Message)
		}
	}
}

func TestAccept(t *testing.T) {
	oldFiles, newFiles := base(), base()
	for _, e := range []edit{version("1.2.1"), del("/nodes/1"), setIn("task.json", "/properties/question/maxLength", 10)} {
		if err := e.apply(newFiles); err != nil {
			t.Fatal(err)
		}
	}
	oldPk := writePack(t, filepath.Join(t.TempDir(), "old"), oldFiles)
	newPk := writePack(t, filepath.Join(t.TempDir(), "new"), newFiles)
	accept := []Acceptance{{Rule: "node-removed", Where: "/nodes/1"}, {Rule: "agent-task-accepts-less", Where: "schemas/task.json"}}
	res, err := Compare(oldPk, newPk, Options{Accept: accept})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Changes) != 0 || res.Accepted != 2 || res.Needed != Patch {
		t.Errorf("changes %v, accepted %d, needed %s; want none, 2, patch", res.Changes, res.Accepted, res.Needed)
	}
}

func TestCompare(t *testing.T) {
	var out strings.Builder
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			oldFiles := base()
			for _, e := range tt.old {
				if err := e.apply(oldFiles); err != nil {
					t.Fatalf("fixture edit %+v: %v", e, err)
				}
			}
			newFiles := maps.Clone(oldFiles)
			for _, e := range tt.edits {
				if err := e.apply(newFiles); err != nil {
					t.Fatalf("fixture edit %+v: %v", e, err)
				}
			}
			oldPk := writePack(t, filepath.Join(t.TempDir(), "old"), oldFiles)
			newPk := writePack(t, filepath.Join(t.TempDir(), "new"), newFiles)
			res, err := Compare(oldPk, newPk, Options{})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range res.Changes {
				got = append(got, c.Rule)
			}
			slices.Sort(got)
			got = slices.Compact(got)
			if !slices.Equal(got, tt.rules) || res.Needed != tt.needed {
				t.Errorf("rules %q needed %s; want %q needed %s", got, res.Needed, tt.rules, tt.needed)
			}
			fmt.Fprintf(&out, "## %s: %s -> %s needs %s, makes %s\n", tt.name, res.OldVersion, res.NewVersion, res.Needed, res.Made)
			for _, c := range res.Changes {
				fmt.Fprintf(&out, "%s:%d:%d: %s %s [%s] old=%q new=%q: %s\n", c.File, c.Start.Line, c.Start.Column, c.Severity, c.Rule, c.Bump, c.OldPointer, c.Pointer, c.Message)
			}
		})
	}
	golden.Assert(t, "golden/changes.txt", []byte(out.String()))
}

// TestRulesDoc keeps docs/breaking.md in step with Rules().
func TestRulesDoc(t *testing.T) {
	var b strings.Builder
	b.WriteString("# Release rules (`wop pack breaking`)\n\nGenerated from `internal/breaking` (`go test ./internal/breaking -update`). See docs/releases.md for how to use them.\n\n| id | level | bump it needs | summary |\n|---|---|---|---|\n")
	for _, r := range Rules() {
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", r.ID, r.Severity, r.Bump, r.Summary)
	}
	golden.Assert(t, filepath.Join("..", "..", "..", "docs", "breaking.md"), []byte(b.String()))
}
