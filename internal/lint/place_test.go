package lint

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/tarball"
)

// countingFS counts the files and directories opened or stat'ed through it.
type countingFS struct {
	fstest.MapFS
	touched int
}

func (c *countingFS) Open(name string) (fs.File, error) {
	c.touched++
	return c.MapFS.Open(name)
}

func (c *countingFS) Stat(name string) (fs.FileInfo, error) {
	c.touched++
	return c.MapFS.Stat(name)
}

// TestPacksInDoesNotReadEverySibling: one pack's place in a folder of 1,000
// packs costs a few directory entries, not a look at every sibling, so a
// cached lint of one pack there does not pay for the other 999
// (bench/scale.sh measures the whole run).
func TestPacksInDoesNotReadEverySibling(t *testing.T) {
	tests := []struct {
		name      string
		packs     int
		others    int // sibling directories without a pack.json
		want      int
		maxTouchs int
	}{
		{"alone", 1, 0, 1, 3},
		{"no pack among other folders", 0, 40, 0, 45},
		{"two packs", 2, 0, 2, 4},
		{"1,000 packs", 1000, 0, 2, 20},
		{"1,000 packs after other folders", 1000, 10, 2, 30},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := &countingFS{MapFS: fstest.MapFS{}}
			for i := range tt.packs {
				fsys.MapFS[fmt.Sprintf("p%04d/pack.json", i)] = &fstest.MapFile{Data: []byte("{}")}
			}
			for i := range tt.others {
				fsys.MapFS[fmt.Sprintf("a%04d/README.md", i)] = &fstest.MapFile{}
			}
			if got := packsIn(fsys, 2); got != tt.want {
				t.Errorf("packsIn = %d, want %d", got, tt.want)
			}
			if fsys.touched > tt.maxTouchs {
				t.Errorf("looked at %d files among %d folders, want at most %d", fsys.touched, tt.packs+tt.others, tt.maxTouchs)
			}
		})
	}
}

// TestNameDirMismatchJudgesRegistryLayoutsOnly: a pack in a registry
// checkout's packs/ (or beside other packs) is judged by its folder; a pack
// that is its own repository's root (.git beside pack.json) never is, even
// cloned beside other pack repositories.
func TestNameDirMismatchJudgesRegistryLayoutsOnly(t *testing.T) {
	manifest := func(name string) string {
		return `{"name":"` + name + `","version":"1.0.0","engines":{"openwop":">=1.1.0 <2.0.0"},"runtime":{"language":"remote","entry":"pack.json"}}`
	}
	tests := []struct {
		name  string
		files map[string]string // under a temp root
		pack  string            // the pack linted
		want  bool
	}{
		{"registry checkout, one pack in packs/", map[string]string{
			".git/HEAD": "ref: refs/heads/main", "packs/notes/pack.json": manifest("community.you.notes")}, "packs/notes", true},
		{"registry checkout, packs beside it", map[string]string{
			".git/HEAD": "", "packs/notes/pack.json": manifest("community.you.notes"), "packs/community.you.other/pack.json": manifest("community.you.other")}, "packs/notes", true},
		{"a folder of packs without .git", map[string]string{
			"my-notes-pack/pack.json": manifest("community.you.notes"), "other-pack/pack.json": manifest("community.you.other")}, "my-notes-pack", true},
		{"a pack repository beside other pack repositories", map[string]string{
			"my-notes-pack/.git/HEAD": "", "my-notes-pack/pack.json": manifest("community.you.notes"),
			"other-pack/.git/HEAD": "", "other-pack/pack.json": manifest("community.you.other")}, "my-notes-pack", false},
		{"a pack repository as a worktree (.git is a file)", map[string]string{
			"community.you.old/.git": "gitdir: /elsewhere", "community.you.old/pack.json": manifest("community.you.notes")}, "community.you.old", false},
		{"a pack repository alone", map[string]string{
			"my-notes-pack/.git/HEAD": "", "my-notes-pack/pack.json": manifest("community.you.notes")}, "my-notes-pack", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			for name, data := range tt.files {
				p := filepath.Join(root, filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			pk, err := pack.Load(filepath.Join(root, filepath.FromSlash(tt.pack)), tarball.DefaultLimits)
			if err != nil {
				t.Fatal(err)
			}
			ds, err := Run(pk, Options{})
			if err != nil {
				t.Fatal(err)
			}
			got := keepRule(ds, "name-dir-mismatch")
			if (len(got) > 0) != tt.want {
				t.Errorf("name-dir-mismatch reported: %v, want %v (%v)", len(got) > 0, tt.want, got)
			}
			if tt.want && len(got) > 0 && !strings.Contains(got[0].Message, "packs/<name>/") {
				t.Errorf("message %q does not say the registry's layout", got[0].Message)
			}
		})
	}
}

// TestPlaceKeysTheFoldersBeside: readme-link-sibling judges a link by the
// folders beside the pack, so a sibling folder that appears or goes changes
// the Place the cache keys.
func TestPlaceKeysTheFoldersBeside(t *testing.T) {
	root := t.TempDir()
	for _, name := range []string{"vendor.acme.a", "vendor.acme.b"} {
		if err := os.MkdirAll(filepath.Join(root, name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, name, "pack.json"), []byte(`{"name":"`+name+`"}`), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	place := func() Place {
		pk, err := pack.Load(filepath.Join(root, "vendor.acme.a"), tarball.DefaultLimits)
		if err != nil {
			t.Fatal(err)
		}
		pl, err := placeOf(pk, nil)
		if err != nil {
			t.Fatal(err)
		}
		return pl
	}
	if err := os.WriteFile(filepath.Join(root, "NOTES.md"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := place()
	if !before.Beside.Has("vendor.acme.b") || before.Beside.Has("vendor.acme.c") || before.Beside.Has("NOTES.md") {
		t.Fatalf("Beside = %+v, want vendor.acme.a and vendor.acme.b (folders only)", before.Beside)
	}
	if err := os.Mkdir(filepath.Join(root, "vendor.acme.c"), 0o755); err != nil {
		t.Fatal(err)
	}
	after := place()
	if !after.Beside.Has("vendor.acme.c") || after.Beside.Stamp == before.Beside.Stamp {
		t.Errorf("a new sibling folder left the keyed stamp at %s", after.Beside.Stamp)
	}
}

// TestPlaceBesideOnlyAmongPacks: a pack that does not sit among others
// lists nothing beside it (readme-link-broken then claims nothing about
// the checkout).
func TestPlaceBesideOnlyAmongPacks(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "vendor.acme.a")
	if err := os.MkdirAll(filepath.Join(dir, "..", "other"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "pack.json"), []byte(`{"name":"vendor.acme.a"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	pk, err := pack.Load(dir, tarball.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	pl, err := placeOf(pk, nil)
	if err != nil {
		t.Fatal(err)
	}
	if pl.SiblingPacks || pl.Beside != nil {
		t.Errorf("Place = %+v, want no sibling packs and nothing beside", pl)
	}
}
