package assist

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/catalog"
	"github.com/wop-cli/wop/internal/lint"
)

// mark is where the cursor is in a fixture text.
const mark = "<|>"

// at returns the document at testdata/<rel> holding text, the cursor
// taken out, and the cursor's offset.
func at(t *testing.T, rel, text string) (Doc, int) {
	t.Helper()
	off := strings.Index(text, mark)
	if off < 0 {
		t.Fatalf("no cursor %s in %q", mark, text)
	}
	abs, err := filepath.Abs(filepath.Join("testdata", rel))
	if err != nil {
		t.Fatal(err)
	}
	return Doc{Path: abs, Text: []byte(strings.Replace(text, mark, "", 1))}, off
}

// testEnv is the fixture pack with the fixture catalog (a folder of packs).
func testEnv(t testing.TB) Env {
	t.Helper()
	c, err := catalog.Open(context.Background(), filepath.Join("testdata", "catalog"), catalog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	dir, err := filepath.Abs(filepath.Join("testdata", "pack"))
	if err != nil {
		t.Fatal(err)
	}
	return Env{PackDir: dir, Catalog: c}
}

const chainV1 = `{"name": "vendor.acme.flows", "version": "1.0.0", "kind": "workflow-chain", "engines": {"openwop": ">=1.1.0 <2.0.0"},
 "chains": [{"chainId": "vendor.acme.flows.main", "dag": {"nodes": [{"id": "a", "typeId": "%s"}]}}]}`

const chainV2 = `{"name": "vendor.acme.flows", "version": "1.0.0", "kind": "workflow-chain", "engines": {"openwop": ">=2.0.0 <3.0.0"},
 "chains": [{"chainId": "vendor.acme.flows.main", "dag": {"nodes": [{"id": "a", "typeId": "%s"}]}}]}`

func chain(tmpl, value string) string { return strings.Replace(tmpl, "%s", value, 1) }

func TestHover(t *testing.T) {
	env := testEnv(t)
	for _, tc := range []struct {
		name, file, text string
		want             []string // substrings of the markdown; none: no hover
		span             string   // the text the span covers
	}{
		{"enum value", "pack/pack.json", `{"agents": [{"modelClass": "wri<|>ting"}]}`,
			[]string{"**modelClass** (string)", "Closed enum from RFC 0002", "Allowed values: `\"reasoning\"`, `\"writing\"`"}, `"writing"`},
		{"member name", "pack/pack.json", `{"agents": [{"model<|>Class": "writing"}]}`,
			[]string{"**modelClass** (string)", "Closed enum"}, `"modelClass"`},
		{"nested through $defs", "pack/pack.json", `{"nodes": [{"ro<|>le": "pure"}]}`, []string{"**role** (string)", "Semantic role", "Roles lint knows (role-unknown): pure, side-effect"}, `"role"`},
		{"half typed", "pack/pack.json", `{"agents": [{"agentId": "vendor.acme.x<|>`,
			[]string{"**agentId** (string)", "Globally-unique manifest agentId"}, `"vendor.acme.x`},
		{"v2 manifest, through ids.schema.json", "pack/pack.json", `{"engines": {"openwop": ">=2.0.0 <3.0.0"}, "agents": [{"agentId": "vendor.acme.<|>x"}]}`,
			[]string{"**agentId** (string)", "Globally-unique"}, `"vendor.acme.x"`},
		{"chain typeId from the catalog", "chain/pack.json", chain(chainV1, "vendor.acme.tools.fe<|>tch"),
			[]string{"Defined by `vendor.acme.tools@2.3.0`", "Role: `side-effect`", "Config schema: `schemas/fetch.config.json` with `timeoutMs`, `url (required)`", "**typeId** (string)"},
			`"vendor.acme.tools.fetch"`},
		{"v2 pinned typeId", "chain/pack.json", chain(chainV2, "vendor.acme.tools.fetch@2.0<|>.1"),
			[]string{"Defined by `vendor.acme.tools@2.3.0`"}, `"vendor.acme.tools.fetch@2.0.1"`},
		{"unknown typeId", "chain/pack.json", chain(chainV1, "vendor.acme.tools.nope<|>"),
			[]string{"no pack in the catalog"}, `"vendor.acme.tools.nope"`},
		{"tool", "pack/pack.json", `{"agents": [{"toolAllowlist": ["openwop:vendor.acme.tools.fetch<|>"]}]}`,
			[]string{"Defined by `vendor.acme.tools@2.3.0`"}, `"openwop:vendor.acme.tools.fetch"`},
		{"agentId the catalog defines too", "pack/pack.json", `{"agents": [{"agentId": "vendor.acme.tools.helper<|>"}]}`,
			[]string{"the catalog's `vendor.acme.tools@2.3.0` defines this agentId too", "Globally-unique"}, `"vendor.acme.tools.helper"`},
		{"dependency name", "pack/pack.json", `{"dependencies": {"vendor.acme.to<|>ols": "^2.0.0"}}`,
			[]string{"**vendor.acme.tools**: the catalog's latest is `2.3.0` (2 node types, 1 agents)", "Other node packs this pack depends on"}, `"vendor.acme.tools"`},
		{"dependency range", "pack/pack.json", `{"dependencies": {"vendor.acme.nope": "^2<|>.0.0"}}`,
			[]string{"no pack of this name in the catalog"}, `"^2.0.0"`},
		{"typeId another pack defines too", "pack/pack.json", `{"name": "vendor.acme.helpers", "nodes": [{"typeId": "vendor.acme.tools.pa<|>rse"}]}`,
			[]string{"the catalog's `vendor.acme.tools@2.3.0` defines this typeId too", "**typeId** (string)"}, `"vendor.acme.tools.parse"`},
		{"unknown member", "pack/pack.json", `{"agents": [{"modelCla<|>s": "writing"}]}`, nil, ""},
		{"between tokens", "pack/pack.json", `{"name": "x",  <|>  "version": "1.0.0"}`, nil, ""},
		{"agf key", "pack/team.agf.yaml", "schema_version: \"1.0.0\"\naction_space:\n  local_agents:\n    - alias: d\n      sour<|>ce_type: file\n",
			[]string{"**source_type** (string)", "Declares how the 'source' field should be resolved"}, "source_type"},
		{"agf quoted value in a sequence", "pack/team.agf.yaml", "action_space:\n  local_agents:\n    - {alias: d, source: \"dra<|>fter.agf.yaml\"}\n",
			[]string{"**source** (string)", "Reference to the sub-agent's definition"}, "drafter.agf.yaml"},
		{"agf metadata version", "pack/team.agf.yaml", "metadata:\n  version: 1.0<|>.0\n",
			[]string{"Agent version"}, "1.0.0"},
		{"agf not YAML yet", "pack/team.agf.yaml", "metadata:\n  version: [1.0<|>\n", nil, ""},
		{"config rule id", ".wop.yaml", "rules:\n  license-not-<|>spdx: warning\n",
			[]string{"**license-not-spdx** (default warning", "license is not an SPDX identifier"}, "license-not-spdx"},
		{"config severity", ".wop.yaml", "rules:\n  license-not-spdx: warn<|>ing\n", nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc, off := at(t, tc.file, tc.text)
			md, span, ok := Hover(env, doc, off)
			if ok != (tc.want != nil) {
				t.Fatalf("ok = %v, markdown:\n%s", ok, md)
			}
			for _, w := range tc.want {
				if !strings.Contains(md, w) {
					t.Errorf("markdown lacks %q:\n%s", w, md)
				}
			}
			if ok && string(doc.Text[span.Start:span.End]) != tc.span {
				t.Errorf("span covers %q, want %q", doc.Text[span.Start:span.End], tc.span)
			}
		})
	}
}

func labels(items []Item) []string {
	var out []string
	for _, it := range items {
		out = append(out, it.Label)
	}
	return out
}

func TestComplete(t *testing.T) {
	env := testEnv(t)
	for _, tc := range []struct {
		name, file, text string
		want, not        []string // labels offered and not offered
		// check is one item's Insert, and the text its Replace covers.
		check, insert, replaced string
	}{
		{"enum in an unclosed string", "pack/pack.json", `{"agents": [{"modelClass": "<|>`,
			[]string{"reasoning", "writing", "general"}, nil, "writing", `writing"`, ""},
		{"enum filtered by what is typed", "pack/pack.json", `{"agents": [{"modelClass": "wr<|>"}]}`,
			[]string{"writing"}, []string{"reasoning"}, "writing", "writing", "wr"},
		{"enum with no quote yet", "pack/pack.json", `{"agents": [{"role": <|>}]}`,
			[]string{"skill", "assistant"}, nil, "skill", `"skill"`, ""},
		{"node role, open in the schema, from lint's list", "pack/pack.json", `{"nodes": [{"role": "<|>"}]}`,
			[]string{"pure", "side-effect", "human-input", "streaming-output", "gate"}, nil, "", "", ""},
		{"node category", "pack/pack.json", `{"nodes": [{"category": "<|>"}]}`,
			[]string{"data", "control", "integration"}, nil, "", "", ""},
		{"kind in a half-typed buffer", "pack/pack.json", `{"kind": "<|>`,
			[]string{"node", "workflow-chain", "prompt", "connection"}, nil, "node", `node"`, ""},
		{"member names of an agent", "pack/pack.json", `{"agents": [{"agentId": "x", <|>}]}`,
			[]string{"modelClass", "systemPromptRef", "toolAllowlist"}, []string{"agentId", "name"}, "modelClass", `"modelClass"`, ""},
		{"member names described behind their $ref", "pack/pack.json", `{"name": "x", <|>}`,
			[]string{"runtime", "signing", "nodes"}, []string{"name"}, "runtime", `"runtime"`, ""},
		{"member names in an unclosed object", "pack/pack.json", `{"name": "x", "runtime": {<|>`,
			[]string{"language", "entry"}, []string{"name"}, "", "", ""},
		{"chain capability, an enum of array items", "chain/pack.json", `{"kind": "workflow-chain", "chains": [{"capabilities": ["cache<|>`,
			[]string{"cacheable"}, []string{"streamable"}, "cacheable", `cacheable"`, "cache"},
		{"member name being typed", "pack/pack.json", `{"agents": [{"agentId": "x", "sys<|>"}]}`,
			[]string{"systemPrompt", "systemPromptRef"}, []string{"modelClass"}, "systemPromptRef", "systemPromptRef", "sys"},
		{"top-level names of a v2 chain pack", "chain/pack.json", `{"engines": {"openwop": ">=2.0.0 <3.0.0"}, "kind": "workflow-chain", <|>}`,
			[]string{"chains", "signing"}, []string{"nodes", "kind"}, "", "", ""},
		{"license", "pack/pack.json", `{"license": "Apache<|>"}`,
			[]string{"Apache-2.0", "Apache-1.1"}, []string{"MIT"}, "Apache-2.0", "Apache-2.0", "Apache"},
		{"prompt file", "pack/pack.json", `{"agents": [{"systemPromptRef": "<|>"}]}`,
			[]string{"prompts/writer.md", "schemas/config.schema.json"}, []string{"pack.json"}, "prompts/writer.md", "prompts/writer.md", ""},
		{"schema file", "pack/pack.json", `{"nodes": [{"configSchemaRef": "sch<|>"}]}`,
			[]string{"schemas/config.schema.json", "schemas/defs.schema.json"}, []string{"prompts/writer.md", "index.mjs"}, "", "", ""},
		{"chain typeId", "chain/pack.json", chain(chainV1, "<|>"),
			[]string{"vendor.acme.tools.fetch", "vendor.acme.tools.parse"}, nil, "vendor.acme.tools.fetch", "vendor.acme.tools.fetch", ""},
		{"v2 chain typeId gets its pin", "chain/pack.json", chain(chainV2, "fetch<|>"),
			[]string{"vendor.acme.tools.fetch"}, []string{"vendor.acme.tools.parse"}, "vendor.acme.tools.fetch", "vendor.acme.tools.fetch@2.0.1", "fetch"},
		{"v2 typeId typed with its pin", "chain/pack.json", chain(chainV2, "vendor.acme.tools.fetch@2<|>"),
			[]string{"vendor.acme.tools.fetch"}, nil, "vendor.acme.tools.fetch", "vendor.acme.tools.fetch@2.0.1", "vendor.acme.tools.fetch@2"},
		{"tool", "pack/pack.json", `{"nodes": [{"typeId": "vendor.acme.helpers.sum"}], "agents": [{"toolAllowlist": ["<|>`,
			[]string{"openwop:vendor.acme.helpers.sum", "openwop:vendor.acme.tools.fetch"}, nil, "openwop:vendor.acme.tools.fetch", `openwop:vendor.acme.tools.fetch"`, ""},
		{"agentId reference", "chain/pack.json", `{"kind": "workflow-chain", "chains": [{"dag": {"nodes": [{"config": {"agentId": "<|>"}}]}}]}`,
			[]string{"vendor.acme.tools.helper"}, nil, "", "", ""},
		{"after a closing quote", "pack/pack.json", `{"license": "MIT"<|>}`, nil, []string{"MIT"}, "", "", ""},
		{"config top-level key", ".wop.yaml", "reg<|>",
			[]string{"registry"}, []string{"rules"}, "registry", "registry", "reg"},
		{"config rule id", ".wop.yaml", "registry: public\nrules:\n  ref-mi<|>\n",
			[]string{"ref-missing"}, []string{"ref-empty"}, "ref-missing", "ref-missing", "ref-mi"},
		{"config short severity", ".wop.yaml", "rules:\n  ref-missing: w<|>",
			[]string{"warning"}, []string{"error"}, "warning", "warning", "w"},
		{"config long severity", ".wop.yaml", "rules:\n  ref-missing:\n    ignore: [a]\n    severity: <|>",
			[]string{"off", "info", "warning", "error"}, nil, "", "", ""},
		{"config rule member", ".wop.yaml", "rules:\n  ref-missing:\n    <|>",
			[]string{"severity", "ignore", "patterns"}, nil, "", "", ""},
		{"config with CRLF line ends", ".wop.yaml", "rules:\r\n  ref-missing: err<|>\r\n",
			[]string{"error"}, nil, "error", "error", "err"},
		{"config registry", ".wop.yaml", "registry: <|>\n",
			[]string{"public", "private"}, nil, "", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc, off := at(t, tc.file, tc.text)
			items := Complete(env, doc, off)
			got := labels(items)
			for _, w := range tc.want {
				if !slices.Contains(got, w) {
					t.Errorf("no %q among %d items %.300q", w, len(got), got)
				}
			}
			for _, n := range tc.not {
				if slices.Contains(got, n) {
					t.Errorf("%q offered", n)
				}
			}
			if tc.check == "" {
				return
			}
			i := slices.Index(got, tc.check)
			if i < 0 {
				return
			}
			it := items[i]
			if it.Insert != tc.insert || string(doc.Text[it.Replace.Start:it.Replace.End]) != tc.replaced {
				t.Errorf("%s: insert %q over %q, want %q over %q", tc.check, it.Insert, doc.Text[it.Replace.Start:it.Replace.End], tc.insert, tc.replaced)
			}
		})
	}
}

func TestDefinition(t *testing.T) {
	env := testEnv(t)
	for _, tc := range []struct {
		name, file, text string
		target           string // testdata-relative; "" for none
		span             string // the target's text the span covers
	}{
		{"prompt ref", "pack/pack.json", `{"agents": [{"systemPromptRef": "prompts/wri<|>ter.md"}]}`, "pack/prompts/writer.md", ""},
		{"runtime entry", "pack/pack.json", `{"runtime": {"entry": "./index<|>.mjs"}}`, "pack/index.mjs", ""},
		{"missing file", "pack/pack.json", `{"agents": [{"systemPromptRef": "prompts/no<|>ne.md"}]}`, "", ""},
		{"ref out of the pack", "pack/pack.json", `{"nodes": [{"configSchemaRef": "../catalog/vendor.acme.tools/pack<|>.json"}]}`, "", ""},
		{"chain typeId", "chain/pack.json", chain(chainV1, "vendor.acme.<|>tools.fetch"),
			"catalog/vendor.acme.tools/pack.json", `"vendor.acme.tools.fetch"`},
		{"tool", "pack/pack.json", `{"agents": [{"toolAllowlist": ["openwop:vendor.acme.tools.<|>parse"]}]}`,
			"catalog/vendor.acme.tools/pack.json", `"vendor.acme.tools.parse"`},
		{"tool of this pack", "pack/pack.json", `{"nodes": [{"typeId": "vendor.acme.helpers.sum"}], "agents": [{"toolAllowlist": ["openwop:vendor.acme.helpers.<|>sum"]}]}`,
			"pack/pack.json", `"vendor.acme.helpers.sum"`},
		{"agentId reference", "chain/pack.json", `{"chains": [{"dag": {"nodes": [{"config": {"agentId": "vendor.acme.tools.<|>helper"}}]}}]}`,
			"catalog/vendor.acme.tools/pack.json", `"vendor.acme.tools.helper"`},
		{"dependency", "pack/pack.json", `{"dependencies": {"vendor.acme.<|>tools": "^2.0.0"}}`,
			"catalog/vendor.acme.tools/pack.json", `"vendor.acme.tools"`},
		{"$ref to another file", "pack/schemas/config.schema.json", `{"$id": "https://schemas.example.org/vendor.acme.helpers/1.0.0/schemas/config.schema.json", "properties": {"mode": {"$ref": "defs.<|>schema.json#/$defs/mode"}}}`,
			"pack/schemas/defs.schema.json", `{"enum": ["fast", "slow"]}`},
		{"$ref by absolute URL", "pack/schemas/config.schema.json", `{"$ref": "https://schemas.example.org/vendor.acme.helpers/1.0.0/schemas/defs.schema.json<|>"}`,
			"pack/schemas/defs.schema.json", ""},
		{"$ref without $id", "pack/schemas/config.schema.json", `{"$ref": "<|>defs.schema.json#/%24defs/mode"}`,
			"pack/schemas/defs.schema.json", `{"enum": ["fast", "slow"]}`},
		{"$ref into a catalog pack", "pack/schemas/config.schema.json", `{"$ref": "https://schemas.example.org/vendor.acme.tools/2.3.0/schemas/fetch.config.json#/properties/u<|>rl"}`,
			"catalog/vendor.acme.tools/schemas/fetch.config.json", `{"type": "string"}`},
		{"$ref in the same file", "pack/schemas/config.schema.json", `{"a": {"$ref": "#/$defs/lo<|>cal"}, "$defs": {"local": {"type": "string"}}}`,
			"pack/schemas/config.schema.json", `{"type": "string"}`},
		{"agf sub-agent", "pack/team.agf.yaml", "action_space:\n  local_agents:\n    - alias: d\n      source: draf<|>ter.agf.yaml\n", "pack/drafter.agf.yaml", ""},
		{"agf registry sub-agent", "pack/team.agf.yaml", "action_space:\n  local_agents:\n    - alias: d\n      source_type: registry\n      source: draf<|>ter.agf.yaml\n", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc, off := at(t, tc.file, tc.text)
			locs := Definition(env, doc, off)
			if tc.target == "" {
				if len(locs) != 0 {
					t.Fatalf("got %v, want none", locs)
				}
				return
			}
			want, _ := filepath.Abs(filepath.Join("testdata", tc.target))
			if len(locs) != 1 || locs[0].Path != want {
				t.Fatalf("got %v, want %s", locs, want)
			}
			text := doc.Text
			if want != doc.Path {
				var err error
				if text, err = os.ReadFile(want); err != nil {
					t.Fatal(err)
				}
			}
			if got := string(text[locs[0].Span.Start:locs[0].Span.End]); got != tc.span {
				t.Errorf("span covers %q, want %q", got, tc.span)
			}
		})
	}
}

func TestLinks(t *testing.T) {
	env := testEnv(t)
	for _, tc := range []struct {
		file string
		want []string // "covered text -> testdata-relative target"
	}{
		{"pack/pack.json", []string{"./index.mjs -> pack/index.mjs", "schemas/config.schema.json -> pack/schemas/config.schema.json", "prompts/writer.md -> pack/prompts/writer.md"}},
		{"pack/schemas/config.schema.json", []string{"defs.schema.json#/$defs/mode -> pack/schemas/defs.schema.json"}},
		{"pack/team.agf.yaml", []string{"drafter.agf.yaml -> pack/drafter.agf.yaml"}},
		{"pack/prompts/writer.md", nil},
	} {
		t.Run(tc.file, func(t *testing.T) {
			abs, _ := filepath.Abs(filepath.Join("testdata", tc.file))
			text, err := os.ReadFile(abs)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, l := range Links(env, Doc{Path: abs, Text: text}) {
				rel, _ := filepath.Rel(must(filepath.Abs("testdata")), l.Target)
				got = append(got, string(text[l.Span.Start:l.Span.End])+" -> "+filepath.ToSlash(rel))
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("links\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestDefinitionInOpenBuffer holds that a definition's span is found in
// the editor's buffer of the target file when it is open, not in the
// bytes on disk.
func TestDefinitionInOpenBuffer(t *testing.T) {
	env := testEnv(t)
	target, _ := filepath.Abs("testdata/catalog/vendor.acme.tools/pack.json")
	buffer := `{"nodes": [{"typeId": "vendor.acme.tools.fetch"}]}`
	env.Open = func(path string) ([]byte, bool) {
		if path == target {
			return []byte(buffer), true
		}
		return nil, false
	}
	doc, off := at(t, "chain/pack.json", chain(chainV1, "vendor.acme.<|>tools.fetch"))
	locs := Definition(env, doc, off)
	if len(locs) != 1 || locs[0].Path != target || buffer[locs[0].Span.Start:locs[0].Span.End] != `"vendor.acme.tools.fetch"` {
		t.Fatalf("got %v, want the typeId in the open buffer", locs)
	}
}

// TestDefinitionInCheckout holds that a typeId opens its node type in a
// registry checkout's packs/ folder.
func TestDefinitionInCheckout(t *testing.T) {
	root := t.TempDir()
	raw, err := os.ReadFile("testdata/catalog/vendor.acme.tools/pack.json")
	if err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(root, "packs", "vendor.acme.tools", "pack.json")
	for path, data := range map[string][]byte{target: raw, filepath.Join(root, filepath.FromSlash(catalog.DiscoveryPath)): []byte("{}")} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c, err := catalog.Open(context.Background(), root, catalog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	doc, off := at(t, "chain/pack.json", chain(chainV1, "vendor.acme.tools.<|>parse"))
	locs := Definition(Env{Catalog: c}, doc, off)
	if len(locs) != 1 || locs[0].Path != target || string(raw[locs[0].Span.Start:locs[0].Span.End]) != `"vendor.acme.tools.parse"` {
		t.Fatalf("got %v, want the typeId in %s", locs, target)
	}
}

// TestFileItemsBounded holds that listing a folder that is no pack (a home
// directory opened by mistake) stops at its bounds: files listed, and
// entries looked at when none match.
func TestFileItemsBounded(t *testing.T) {
	dir := t.TempDir()
	for i := range 10 {
		sub := filepath.Join(dir, fmt.Sprintf("d%d", i))
		if err := os.Mkdir(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		for j := range 10 {
			if err := os.WriteFile(filepath.Join(sub, fmt.Sprintf("f%d.txt", j)), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if n := len(listFiles(dir, "", 25, 1000)); n != 25 {
		t.Errorf("%d files listed, want the bound 25", n)
	}
	if n := len(listFiles(dir, "", 1000, 30)); n >= 30 {
		t.Errorf("%d files listed after 30 entries looked at", n)
	}
	if n := len(listFiles(dir, "", 1000, 1000)); n != 100 {
		t.Errorf("%d files listed, want all 100", n)
	}
}

// TestPropertyBehindRef holds that a member whose schema is a $ref is
// offered with the type found behind it.
func TestPropertyBehindRef(t *testing.T) {
	doc, off := at(t, "pack/pack.json", `{"name": "x", <|>}`)
	for _, it := range Complete(Env{}, doc, off) {
		if it.Label == "runtime" {
			if it.Detail != "object" {
				t.Errorf("runtime: detail %q, want object", it.Detail)
			}
			return
		}
	}
	t.Fatal("runtime not offered")
}

// TestLicenseItemsCommonFirst: the common licenses come first, in order,
// each a real SPDX id listed once; the rest follow alphabetically.
func TestLicenseItemsCommonFirst(t *testing.T) {
	items := licenseItems()
	want := []string{"MIT", "Apache-2.0", "BSD-3-Clause", "BSD-2-Clause", "ISC", "MPL-2.0", "GPL-3.0-only"}
	sorted := slices.Clone(items)
	slices.SortStableFunc(sorted, func(a, b Item) int { return strings.Compare(a.SortText, b.SortText) })
	for i, id := range want {
		if items[i].Label != id || sorted[i].Label != id {
			t.Errorf("item %d is %q (by SortText %q), want %q", i, items[i].Label, sorted[i].Label, id)
		}
	}
	ids := lint.LicenseIDs()
	if len(items) != len(ids) {
		t.Errorf("%d items for %d SPDX ids: a common id is not an SPDX id or is listed twice", len(items), len(ids))
	}
	if rest := sorted[len(commonLicenses)]; rest.Label != ids[0] {
		t.Errorf("the rest start with %q, want %q", rest.Label, ids[0])
	}
}
