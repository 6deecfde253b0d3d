package build

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/tarball"
	"github.com/wop-cli/wop/internal/testutil/filetree"
)

// TestRuntimeArtifactEveryLanguage: the build bundles the artifact
// runtime.entry names whatever the language (the public registry's builder
// takes only index.mjs), and each frontend plugin's entry bundle; a remote
// runtime names no file, and a missing artifact stops the plan naming it.
func TestRuntimeArtifactEveryLanguage(t *testing.T) {
	node := `{"name":"community.acme.nodes","version":"1.0.0","kind":"node","engines":{"openwop":">=2.0.0 <3.0.0"},
	  "runtime":{"language":%q,"entry":%q},"nodes":[{"typeId":"community.acme.nodes.x","version":"1.0.0","category":"data","role":"pure"}]}`
	cases := []struct {
		name    string
		files   map[string]string
		want    string // the entry the archive must hold; "" for none
		wantErr string
	}{
		{"javascript", map[string]string{"pack.json": fmt.Sprintf(node, "javascript", "dist/nodes.mjs"), "dist/nodes.mjs": "export const nodes = {};\n"}, "dist/nodes.mjs", ""},
		{"python", map[string]string{"pack.json": fmt.Sprintf(node, "python", "dist/nodes-1.0.0-py3-none-any.whl"), "dist/nodes-1.0.0-py3-none-any.whl": "PK\x03\x04"}, "dist/nodes-1.0.0-py3-none-any.whl", ""},
		{"go", map[string]string{"pack.json": fmt.Sprintf(node, "go", "bin/nodes"), "bin/nodes": "\x7fELF"}, "bin/nodes", ""},
		{"wasm", map[string]string{"pack.json": fmt.Sprintf(node, "wasm", "module.wasm"), "module.wasm": "\x00asm\x01\x00\x00\x00"}, "module.wasm", ""},
		{"wasm-component", map[string]string{"pack.json": fmt.Sprintf(node, "wasm-component", "nodes.wasm"), "nodes.wasm": "\x00asm\x0d\x00\x01\x00"}, "nodes.wasm", ""},
		{"remote", map[string]string{"pack.json": fmt.Sprintf(node, "remote", "https://nodes.acme.dev/mcp")}, "", ""},
		{"frontend plugin", map[string]string{
			"pack.json":      `{"name":"community.acme.ui","version":"1.0.0","kind":"frontend-plugin","engines":{"openwop":">=2.0.0 <3.0.0"},"uiPlugins":[{"pluginId":"v","surface":"route","entry":"ui/v.html","hostApi":[]}]}`,
			"ui/v.html":      "<p>v</p>\n",
			"ui/unnamed.css": "p{}",
		}, "ui/v.html", ""},
		{"wasm missing", map[string]string{"pack.json": fmt.Sprintf(node, "wasm", "module.wasm")}, "", `runtime.entry "module.wasm": no such file in the pack`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			filetree.Write(t, dir, c.files)
			pk, err := pack.Load(dir, tarball.DefaultLimits)
			if err != nil {
				t.Fatal(err)
			}
			plan, err := NewPlan(pk, Signing{})
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("plan error %v, want %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range plan.Entries() {
				got = append(got, e.Name)
			}
			want := []string{"pack.json"}
			if c.want != "" {
				want = append(want, c.want)
			}
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("archive entries %q, want %q", got, want)
			}
		})
	}
}
