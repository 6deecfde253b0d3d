package catalog

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/wop-cli/wop/internal/testutil/filetree"
)

// TestRuntimeSource reads a node type's executor inside its pack and never
// one reached by a path or a link out of the pack.
func TestRuntimeSource(t *testing.T) {
	manifest := func(entry string) string {
		return `{"name": "community.acme.tools", "version": "1.0.0", "runtime": {"language": "javascript", "entry": "` + entry + `"},
		  "nodes": [{"typeId": "community.acme.tools.chat"}]}`
	}
	const src = "export const nodes = {};\n"
	tests := []struct {
		name  string
		files map[string]string
		link  [2]string // a symbolic link to make: path in the pack, target
		want  string
	}{
		{"entry at the root", map[string]string{"pack.json": manifest("./index.mjs"), "index.mjs": src}, [2]string{}, src},
		{"entry in a folder", map[string]string{"pack.json": manifest("dist/index.mjs"), "dist/index.mjs": src}, [2]string{}, src},
		{"entry out of the pack", map[string]string{"pack.json": manifest("../../outside.mjs")}, [2]string{}, ""},
		{"absolute entry", map[string]string{"pack.json": manifest("/etc/passwd")}, [2]string{}, ""},
		{"entry is a link", map[string]string{"pack.json": manifest("index.mjs")}, [2]string{"index.mjs", "../outside.mjs"}, ""},
		{"folder is a link", map[string]string{"pack.json": manifest("dist/index.mjs")}, [2]string{"dist", "../elsewhere"}, ""},
		{"no runtime", map[string]string{"pack.json": `{"name": "community.acme.tools", "version": "1.0.0", "nodes": [{"typeId": "community.acme.tools.chat"}]}`, "index.mjs": src}, [2]string{}, ""},
		{"not javascript", map[string]string{"pack.json": `{"name": "community.acme.tools", "version": "1.0.0", "runtime": {"language": "python", "entry": "index.mjs"}, "nodes": [{"typeId": "community.acme.tools.chat"}]}`, "index.mjs": src}, [2]string{}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			filetree.Write(t, root, map[string]string{"outside.mjs": "secret", "elsewhere/index.mjs": "secret"})
			dir := filepath.Join(root, "packs")
			files := map[string]string{}
			for k, v := range tt.files {
				files["community.acme.tools/"+k] = v
			}
			filetree.Write(t, dir, files)
			if tt.link[0] != "" {
				if err := os.Symlink(filepath.Join("..", tt.link[1]), filepath.Join(dir, "community.acme.tools", tt.link[0])); err != nil {
					t.Skip(err)
				}
			}
			c, err := loadFolder(dir, "")
			if err != nil {
				t.Fatal(err)
			}
			n, ok := c.NodeType("community.acme.tools.chat")
			if !ok {
				t.Fatal("node type not in the catalog")
			}
			if got := c.RuntimeSource(n); got != tt.want {
				t.Errorf("RuntimeSource = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestRuntimeSourceWithoutFiles: an index names node types but holds no
// executor, and a merged catalog reads the executor from the source that
// holds the pack.
func TestRuntimeSourceWithoutFiles(t *testing.T) {
	root := t.TempDir()
	filetree.Write(t, root, map[string]string{
		"index.json": `{"packs": [{"name": "community.acme.other", "latest": "1.0.0", "typeIds": ["community.acme.other.x"]}]}`,
		"packs/community.acme.tools/pack.json": `{"name": "community.acme.tools", "version": "1.0.0", "runtime": {"language": "javascript", "entry": "index.mjs"},
		  "nodes": [{"typeId": "community.acme.tools.chat"}]}`,
		"packs/community.acme.tools/index.mjs": "export const nodes = {};",
	})
	index, err := Open(t.Context(), filepath.Join(root, "index.json"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	folder, err := loadFolder(filepath.Join(root, "packs"), "")
	if err != nil {
		t.Fatal(err)
	}
	m := Merge(index, folder)
	x, _ := m.NodeType("community.acme.other.x")
	if got := m.RuntimeSource(x); got != "" {
		t.Errorf("index pack: RuntimeSource = %q, want none", got)
	}
	chat, _ := m.NodeType("community.acme.tools.chat")
	if got := m.RuntimeSource(chat); got != "export const nodes = {};" {
		t.Errorf("merged folder pack: RuntimeSource = %q", got)
	}
	if got := m.RuntimeSource(nil); got != "" {
		t.Errorf("nil node type: %q", got)
	}
}
