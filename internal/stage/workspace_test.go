package stage

import (
	"context"
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/testutil/filetree"

	"github.com/wop-cli/wop/internal/atomicfile"
)

// tree writes files (slash path -> content) under a new temp dir.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	filetree.Write(t, root, files)
	return root
}

// snapshot reads every file under root, for before/after comparisons.
func snapshot(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			data, _ := os.ReadFile(p)
			rel, _ := filepath.Rel(root, p)
			out[filepath.ToSlash(rel)] = string(data)
		} else if err == nil && d.IsDir() {
			rel, _ := filepath.Rel(root, p)
			out[filepath.ToSlash(rel)+"/"] = ""
		}
		return nil
	})
	return out
}

func TestCopyDiffApply(t *testing.T) {
	checkout := tree(t, map[string]string{
		"packs/a/pack.json":      "old",
		"packs/a/schemas/x.json": "gone in the new version",
		"registry/v1/index.json": "index 1",
		"registry/robots.txt":    "same",
		".git/HEAD":              "not content",
	})
	work := t.TempDir()
	if err := copyTree(context.Background(), checkout, work); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(work, ".git")); err == nil {
		t.Error(".git was copied")
	}
	ch := &change{replace: "packs/a", files: map[string][]byte{"packs/a/pack.json": []byte("new"), "registry/v1/packs/a/-/1.json": []byte("m")}}
	if err := writeChange(work, ch); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(work, "registry/v1/index.json"), []byte("index 2"), 0o644)
	edits, err := diff(checkout, work)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range edits {
		got = append(got, e.Op+" "+e.Path)
	}
	want := "modified packs/a/pack.json|deleted packs/a/schemas/x.json|modified registry/v1/index.json|added registry/v1/packs/a/-/1.json"
	if strings.Join(got, "|") != want {
		t.Fatalf("edits\n%s\nwant\n%s", strings.Join(got, "|"), want)
	}
	if _, err := apply(checkout, edits, realOps); err != nil {
		t.Fatal(err)
	}
	after := snapshot(t, checkout)
	if after["packs/a/pack.json"] != "new" || after["registry/v1/packs/a/-/1.json"] != "m" || after["registry/v1/index.json"] != "index 2" {
		t.Errorf("not applied: %v", after)
	}
	if _, ok := after["packs/a/schemas/x.json"]; ok {
		t.Error("deleted file still there")
	}
}

// TestApplyRollsBack: a write failing at any point leaves the checkout
// exactly as it was, new folders included; so does a later step's rollback.
func TestApplyRollsBack(t *testing.T) {
	files := map[string]string{"a/old.json": "1", "b/keep.json": "2", "c/gone.json": "3"}
	edits := []Edit{
		{Path: "a/new/deep/file.json", Op: "added", data: []byte("x"), mode: 0o644},
		{Path: "a/old.json", Op: "modified", data: []byte("changed"), mode: 0o644},
		{Path: "c/gone.json", Op: "deleted"},
		{Path: "d/added.json", Op: "added", data: []byte("y"), mode: 0o644},
	}
	for failAt := range len(edits) {
		root := tree(t, files)
		before := snapshot(t, root)
		n := 0
		ops := fileOps{
			write: func(p string, data []byte, mode fs.FileMode) error {
				if n++; n > failAt {
					return errors.New("disk full")
				}
				return atomicfile.Write(p, data, mode)
			},
			remove: func(p string) error {
				if n++; n > failAt {
					return errors.New("disk full")
				}
				return os.Remove(p)
			},
		}
		if _, err := apply(root, edits, ops); err == nil || !strings.Contains(err.Error(), "disk full") {
			t.Fatalf("fail at %d: err %v", failAt, err)
		}
		if after := snapshot(t, root); !equalMaps(before, after) {
			t.Errorf("fail at %d: checkout changed:\nbefore %v\nafter  %v", failAt, before, after)
		}
	}
	root := tree(t, files)
	before := snapshot(t, root)
	done, err := apply(root, edits, realOps)
	if err != nil {
		t.Fatal(err)
	}
	if err := done.rollback(); err != nil {
		t.Fatal(err)
	}
	if after := snapshot(t, root); !equalMaps(before, after) {
		t.Errorf("rollback after success:\nbefore %v\nafter  %v", before, after)
	}
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// A hostile or odd checkout whose packs/ or registry/ is a symlink out of it
// must not make staging delete or write files there.
func TestWriteChangeStaysInside(t *testing.T) {
	for _, linked := range []string{"packs", "registry", "registry/v1/packs"} {
		t.Run(linked, func(t *testing.T) {
			outside := tree(t, map[string]string{"a/precious.txt": "keep", "-/1.0.0.tgz": "keep"})
			work := tree(t, map[string]string{"registry/.well-known/openwop-registry.json": "{}"})
			link := filepath.Join(work, filepath.FromSlash(linked))
			if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
				t.Fatal(err)
			}
			os.RemoveAll(link)
			if err := os.Symlink(outside, link); err != nil {
				t.Fatal(err)
			}
			before := snapshot(t, outside)
			ch := &change{replace: "packs/a", files: map[string][]byte{
				"packs/a/pack.json":               []byte("{}"),
				"registry/v1/packs/a/-/1.0.0.tgz": []byte("tgz"),
			}}
			err := writeChange(work, ch)
			if err == nil || !strings.Contains(err.Error(), "symlink in the checkout leads outside it") {
				t.Fatalf("writeChange = %v, want the symlink refused", err)
			}
			if after := snapshot(t, outside); !maps.Equal(before, after) {
				t.Errorf("outside the checkout changed:\nbefore %v\nafter  %v", before, after)
			}
		})
	}
}

// TestCopyTreeStopsWhenCancelled: Ctrl-C during the copy of a large
// checkout stops it at once, so Stage can remove what was copied before
// the process's grace after Ctrl-C runs out.
func TestCopyTreeStopsWhenCancelled(t *testing.T) {
	checkout := tree(t, map[string]string{"packs/a/pack.json": "{}", "registry/v1/index.json": "{}"})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	work := t.TempDir()
	if err := copyTree(ctx, checkout, work); !errors.Is(err, context.Canceled) {
		t.Fatalf("copyTree after cancel: %v, want context.Canceled", err)
	}
	if entries, _ := os.ReadDir(work); len(entries) != 0 {
		t.Errorf("copied after cancel: %v", entries)
	}
}
