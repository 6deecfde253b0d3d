package pack

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestOwnerAndBelow(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{
		"packs/a/pack.json", "packs/a/prompts/p.md", "packs/a/nested/pack.json",
		"packs/b/pack.json", "schemas/s.json", "node_modules/x/pack.json", "single/pack.json",
	} {
		p := filepath.Join(root, f)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("{}"), 0o644)
	}
	os.MkdirAll(filepath.Join(root, "packs/c/pack.json"), 0o755) // a directory named pack.json is no manifest
	j := func(p string) string { return filepath.Join(root, p) }
	tests := []struct {
		path, want string
	}{
		{"packs/a/prompts/p.md", "packs/a"},
		{"packs/a/prompts/deleted.md", "packs/a"},
		{"packs/a/prompts", "packs/a"},
		{"packs/a/pack.json", "packs/a"},
		{"packs/a/nested/pack.json", "packs/a/nested"},
		{"packs/b", "packs/b"},
		{"packs/c/pack.json/x", ""},
		{"schemas/s.json", ""},
	}
	for _, tt := range tests {
		dir, ok := Owner(j(tt.path))
		if tt.want == "" {
			if ok && strings.HasPrefix(dir, root) { // (a pack.json above the temp dir is not ours to judge)
				t.Errorf("Owner(%s) = %s, want none", tt.path, dir)
			}
			continue
		}
		if !ok || dir != j(tt.want) {
			t.Errorf("Owner(%s) = %s %v, want %s", tt.path, dir, ok, tt.want)
		}
	}
	got, err := Below(root)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{j("packs/a"), j("packs/b"), j("single")}
	if !slices.Equal(got, want) {
		t.Errorf("Below = %v, want %v (no descent into a pack or node_modules)", got, want)
	}
}
