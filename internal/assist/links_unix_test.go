//go:build unix

package assist

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestLinksOutOfThePack holds that a link in a pack, to a file or a folder
// outside it, is neither offered, nor opened, nor linked: an untrusted
// workspace's refs never lead out of their pack.
func TestLinksOutOfThePack(t *testing.T) {
	root := t.TempDir()
	outside := filepath.Join(root, "outside")
	dir := filepath.Join(root, "pack")
	for _, d := range []string{outside, filepath.Join(dir, "prompts")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{filepath.Join(outside, "secret.md"), filepath.Join(dir, "prompts", "ok.md")} {
		if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(outside, "secret.md"), filepath.Join(dir, "prompts", "link.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "shared")); err != nil {
		t.Fatal(err)
	}
	text := `{"agents": [{"systemPromptRef": "prompts/link.md"}, {"systemPromptRef": "shared/secret.md"}, {"systemPromptRef": "prompts/ok.md"}, {"systemPromptRef": ""}]}`
	doc := Doc{Path: filepath.Join(dir, "pack.json"), Text: []byte(text)}
	env := Env{PackDir: dir}

	if got := labels(Complete(env, doc, len(text)-4)); !slices.Equal(got, []string{"prompts/ok.md"}) {
		t.Errorf("completion offers %q, want only prompts/ok.md", got)
	}
	for _, ref := range []string{"prompts/link.md", "shared/secret.md"} {
		off := strings.Index(text, ref) + 2
		if locs := Definition(env, doc, off); len(locs) != 0 {
			t.Errorf("%s opens %v", ref, locs)
		}
	}
	links := Links(env, doc)
	if len(links) != 1 || links[0].Target != filepath.Join(dir, "prompts", "ok.md") {
		t.Errorf("links %v, want prompts/ok.md alone", links)
	}
}
