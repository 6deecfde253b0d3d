package lint

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/tarball"
)

// wasmModule is the smallest WebAssembly core module: the magic and version 1.
const wasmModule = "\x00asm\x01\x00\x00\x00"

// The three pack shapes of the OpenWOP spec repository's conformance
// fixtures (conformance/fixtures/{frontend-plugin,wasm,connection}-packs),
// written afresh with the same members.
var (
	frontendPluginShape = `{
  "name": "community.acme.demo",
  "version": "1.0.0",
  "kind": "frontend-plugin",
  "engines": {"openwop": ">=2.0.0 <3.0.0"},
  "uiPlugins": [
    {"pluginId": "viewer", "surface": "artifact-viewer", "entry": "ui/viewer.html", "hostApi": ["artifact.read"]}
  ]
}`
	wasmNodeShape = `{
  "kind": "node",
  "name": "community.acme.demo",
  "version": "1.0.0",
  "description": "Echoes its input, compiled to WebAssembly.",
  "author": "Acme",
  "license": "Apache-2.0",
  "engines": {"openwop": ">=2.0.0 <3.0.0"},
  "nodes": [
    {"typeId": "community.acme.demo.echo", "version": "1.0.0", "category": "data", "role": "pure", "label": "Echo", "description": "Echoes its input."}
  ],
  "runtime": {"language": "%s", "entry": "%s", "format": "%s", "minRuntimeVersion": "1"}
}`
	connectionShape = `{
  "name": "community.acme.demo",
  "version": "1.0.0",
  "kind": "connection",
  "engines": {"openwop": ">=2.0.0 <3.0.0"},
  "provider": {
    "id": "acme-widgets",
    "displayName": "Acme Widgets",
    "category": "dev",
    "auth": {
      "kind": "oauth2",
      "authFlow": "pkce",
      "scopeModel": "groups",
      "endpoints": {"authorize": "https://auth.widgets.example.com/authorize", "token": "https://auth.widgets.example.com/token"},
      "scopes": {"read": [{"key": "widget.read", "label": "Read widgets", "scopes": ["widget:read"]}]}
    },
    "reach": {"mcp": {"server": {"url": "https://mcp.widgets.example.com/mcp/", "transport": "http"}}},
    "consumerNodes": ["core.openwop.mcp.invoke-tool"]
  }
}`
)

// findings lints files and returns "severity rule: message" lines, warnings
// about missing node schemas left out (the shapes declare none, as the
// fixtures do).
func findings(t *testing.T, files ...ExampleFile) []string {
	t.Helper()
	var out []string
	for _, d := range lintExampleWith(t, files, tarball.DefaultLimits, "", Options{}) {
		if d.Rule != "node-schema-ref-missing" {
			out = append(out, fmt.Sprintf("%s %s: %s", d.Severity, d.Rule, d.Message))
		}
	}
	return out
}

// matchAll checks that each want is part of a finding of its own.
func matchAll(t *testing.T, got, want []string) {
	t.Helper()
	used := make([]bool, len(got))
	for _, w := range want {
		i := slices.IndexFunc(got, func(g string) bool { return strings.Contains(g, w) })
		for i >= 0 && used[i] {
			j := slices.IndexFunc(got[i+1:], func(g string) bool { return strings.Contains(g, w) })
			if j < 0 {
				i = -1
				break
			}
			i += 1 + j
		}
		if i < 0 {
			t.Errorf("no finding contains %s in:\n%s", w, strings.Join(got, "\n"))
			continue
		}
		used[i] = true
	}
}

// TestConformanceShapes: wop lints the conformance fixtures' shapes with no
// error or warning; what the public registry's builder would drop is an
// info naming that builder.
func TestConformanceShapes(t *testing.T) {
	cases := map[string]struct {
		files []ExampleFile
		want  []string // a substring of each finding
	}{
		"frontend-plugin": {
			files: []ExampleFile{{"pack.json", frontendPluginShape}, {"ui/viewer.html", "<!doctype html><title>viewer</title>\n"}},
			want:  []string{`info registry-builder-omits: uiPlugins[0].entry "ui/viewer.html": wop pack build bundles it, but the public registry's builder (openwop-registry scripts/build-pack-tarball.mjs)`},
		},
		"wasm node": {
			files: []ExampleFile{{"pack.json", fmt.Sprintf(wasmNodeShape, "wasm", "module.wasm", "wasm")}, {"module.wasm", wasmModule}},
			want:  []string{`info registry-builder-omits: runtime.entry "module.wasm": wop pack build bundles it`},
		},
		"wasm-component node": {
			files: []ExampleFile{{"pack.json", fmt.Sprintf(wasmNodeShape, "wasm-component", "echo.wasm", "wasm-component")}, {"echo.wasm", "\x00asm\x0d\x00\x01\x00"}},
			want:  []string{`info registry-builder-omits: runtime.entry "echo.wasm"`},
		},
		"connection": {files: []ExampleFile{{"pack.json", connectionShape}}},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			got := findings(t, c.files...)
			if len(got) != len(c.want) {
				t.Fatalf("findings:\n%s\nwant %d: %q", strings.Join(got, "\n"), len(c.want), c.want)
			}
			matchAll(t, got, c.want)
		})
	}
}

// TestRuntimeAndPluginDefects: the defects around the new shapes are named
// once each, with the fix.
func TestRuntimeAndPluginDefects(t *testing.T) {
	withRuntime := strings.Replace(frontendPluginShape, `"uiPlugins"`, `"runtime": {"language": "javascript", "entry": "index.mjs"}, "uiPlugins"`, 1)
	v1Plugin := strings.Replace(frontendPluginShape, `>=2.0.0 <3.0.0`, `>=1.0.0 <2.0.0`, 1)
	cases := map[string]struct {
		files []ExampleFile
		want  []string
	}{
		"wat text as wasm": {
			files: []ExampleFile{{"pack.json", fmt.Sprintf(wasmNodeShape, "wasm", "module.wasm", "wasm")}, {"module.wasm", "(module)\n"}},
			want:  []string{`error runtime-entry-not-wasm: runtime.entry "module.wasm" is not a WebAssembly binary (it starts with "(mod", not the magic \0asm)`, "info registry-builder-omits"},
		},
		"empty component": {
			files: []ExampleFile{{"pack.json", fmt.Sprintf(wasmNodeShape, "wasm-component", "echo.wasm", "wasm-component")}, {"echo.wasm", ""}},
			want:  []string{`error runtime-entry-not-wasm: runtime.entry "echo.wasm" is not a WebAssembly binary (it starts with nothing: the file is empty`, "info registry-builder-omits"},
		},
		"binary that is not wasm": {
			files: []ExampleFile{{"pack.json", fmt.Sprintf(wasmNodeShape, "wasm", "module.wasm", "wasm")}, {"module.wasm", "\x7fELF\x02"}},
			want:  []string{`(it starts with bytes 7f 45 4c 46, not the magic`, "info registry-builder-omits"},
		},
		"wasm entry missing": {
			files: []ExampleFile{{"pack.json", fmt.Sprintf(wasmNodeShape, "wasm", "module.wasm", "wasm")}},
			want:  []string{`error runtime-entry-missing: runtime.entry "module.wasm": not in the pack directory`},
		},
		"plugin entry missing": {
			files: []ExampleFile{{"pack.json", frontendPluginShape}},
			want:  []string{`error ref-missing: uiPlugins[0].entry "ui/viewer.html": file not found`},
		},
		"plugin with a runtime": {
			files: []ExampleFile{{"pack.json", withRuntime}, {"ui/viewer.html", "<p>v</p>\n"}},
			want:  []string{"error declarative-kind-has-runtime: a frontend-plugin pack is sandboxed UI with no backend runtime", "info registry-builder-omits"},
		},
		"plugin judged as v1": {
			files: []ExampleFile{{"pack.json", v1Plugin}, {"ui/viewer.html", "<p>v</p>\n"}},
			want:  []string{`error kind-unknown: kind "frontend-plugin" is defined by the v2 spec only, and this manifest is judged as v1; give engines.openwop a v2 range such as ">=2.0.0 <3.0.0"`, "info registry-builder-omits"},
		},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			got := findings(t, c.files...)
			if len(got) != len(c.want) {
				t.Fatalf("findings:\n%s\nwant %d: %q", strings.Join(got, "\n"), len(c.want), c.want)
			}
			matchAll(t, got, c.want)
		})
	}
}

// TestV2EvalSuiteSchema: a v2 agent's eval suite is held to the spec's
// agent-eval-suite schema; a v1 pack's only to the loose shape.
func TestV2EvalSuiteSchema(t *testing.T) {
	manifest := `{
  "kind": "node",
  "name": "community.acme.demo",
  "version": "1.0.0",
  "description": "Demo pack.",
  "license": "Apache-2.0",
  "engines": {"openwop": "%s"},
  "runtime": {"language": "remote", "entry": "pack.json"},
  "agents": [{
    "agentId": "community.acme.demo.helper",
    "version": "1.0.0",
    "displayName": "Helper",
    "description": "Helps.",
    "modelClass": "general",
    "systemPrompt": "You help.",
    "evalSuiteRef": "schemas/evals.json"
  }]
}`
	suite := `{"suiteId": "community.acme.evals.helper", "version": "1.0.0", "modes": ["golden", "vibes"], "tasks": [{"taskId": "t1", "input": {}, "expected": {"kind": "golden", "match": {"strategy": "exact", "value": "ok"}}}]}`
	v2 := keepRule(lintExampleWith(t, []ExampleFile{{"pack.json", fmt.Sprintf(manifest, ">=2.0.0 <3.0.0")}, {"schemas/evals.json", suite}}, tarball.DefaultLimits, "eval-suite-invalid", Options{}), "eval-suite-invalid")
	if len(v2) != 1 || v2[0].Severity != diag.Error || v2[0].File != "schemas/evals.json" || !strings.Contains(v2[0].Message, `"vibes"`) || !strings.Contains(v2[0].Message, "agent-eval-suite.schema.json; the file is named by agents[0].evalSuiteRef") {
		t.Errorf("v2 eval suite with an unknown mode: %+v", v2)
	}
	v1 := lintExampleWith(t, []ExampleFile{{"pack.json", fmt.Sprintf(manifest, ">=1.1.0 <2.0.0")}, {"schemas/evals.json", suite}}, tarball.DefaultLimits, "eval-suite-invalid", Options{})
	if len(v1) != 0 {
		t.Errorf("v1 eval suite held to the v2 schema: %+v", v1)
	}
}

// TestRegistryBuilderOmitsPublicTarget: with the public registry as the
// configured target, what its builder would drop is a warning saying so.
func TestRegistryBuilderOmitsPublicTarget(t *testing.T) {
	files := []ExampleFile{{"pack.json", fmt.Sprintf(wasmNodeShape, "wasm", "module.wasm", "wasm")}, {"module.wasm", wasmModule}}
	for _, public := range []bool{false, true} {
		ds := lintExampleWith(t, files, tarball.DefaultLimits, "registry-builder-omits", Options{Profile: Profile{Public: public}})
		want, says := diag.Info, "publish the archive wop builds, or have a registry that builds from source bundle this file"
		if public {
			want, says = diag.Warning, "the target registry in .wop.yaml is the public one, where a rebuild from the source would lose the file"
		}
		if len(ds) != 1 || ds[0].Severity != want || !strings.Contains(ds[0].Message, says) {
			t.Errorf("public target %v: %+v", public, ds)
		}
	}
}
