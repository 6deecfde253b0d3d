package config

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestFinderAnswersAsTheDisk: a Finder shared by many searches gives every
// start directory the answer a fresh search gives, in any order, whoever
// owns the files and wherever home, repository roots and safe directories
// are.
func TestFinderAnswersAsTheDisk(t *testing.T) {
	root := t.TempDir()
	dirs := []string{
		"repo/packs/a", "repo/packs/b", // a repository root above: none
		"repo/cfg/x/y", "repo/cfg/z", // a .wop.yaml in repo/cfg
		"repo/yml/p", // a .wop.yml, the second name
		"home/p/q",   // home stops the search
		"loose/a",    // up to the filesystem root
	}
	for _, d := range dirs {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(root, "repo", ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(root, "repo", "cfg"), "registry: public\n")
	if err := os.WriteFile(filepath.Join(root, "repo", "yml", ".wop.yml"), []byte("registry: public\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	me := os.Getuid()
	home := filepath.Join(root, "home")
	discoveries := map[string]Discovery{
		"mine":                     {Home: home, UID: me},
		"another user's":           {Home: home, UID: me + 1000},
		"another user's, safe dir": {Home: home, UID: me + 1000, SafeDirs: []string{filepath.Join(root, "repo", "cfg")}},
		"no owners":                {Home: home, UID: -1},
	}
	starts := []string{root}
	for _, d := range dirs {
		for p := filepath.Join(root, d); p != root; p = filepath.Dir(p) {
			starts = append(starts, p)
		}
	}
	for name, d := range discoveries {
		t.Run(name, func(t *testing.T) {
			for _, order := range [][]string{starts, backward(starts)} {
				f := NewFinder(d)
				for _, start := range append(order, order...) {
					got, err := f.Find(start)
					if err != nil {
						t.Fatal(err)
					}
					want, err := Find(start, d)
					if err != nil {
						t.Fatal(err)
					}
					if got != want {
						t.Errorf("Finder.Find(%s) = %+v, a fresh search says %+v", start, got, want)
					}
				}
			}
		})
	}
}

// TestFinderAsksOnce: once a Finder has passed a directory, it answers
// from its memo: a configuration file removed since is still the answer
// for the rest of the run, for the directory and every one below it.
func TestFinderAsksOnce(t *testing.T) {
	root := t.TempDir()
	a, b := filepath.Join(root, "packs", "a"), filepath.Join(root, "packs", "b")
	for _, d := range []string{a, b} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cfg := write(t, root, "registry: public\n")
	f := NewFinder(Discovery{Home: root, UID: -1})
	if got, err := f.Find(a); err != nil || got.Path != cfg {
		t.Fatalf("Find(a) = %+v, %v; want %s", got, err, cfg)
	}
	if err := os.Remove(cfg); err != nil {
		t.Fatal(err)
	}
	got, err := f.Find(b) // b is new, its parent packs/ is not
	if err != nil || got.Path != cfg {
		t.Errorf("Find(b) = %+v, %v; want the memo's %s", got, err, cfg)
	}
	if got, _ := Find(b, Discovery{Home: root, UID: -1}); got.Path != "" {
		t.Errorf("a fresh search found %s", got.Path)
	}
}

func backward(s []string) []string {
	r := slices.Clone(s)
	slices.Reverse(r)
	return r
}

// TestFindUnsaved: an editor's buffer for a .wop.yaml never saved is
// found where the file would be; a file on disk still ends the search
// first, and without Unsaved nothing but the disk counts.
func TestFindUnsaved(t *testing.T) {
	root := t.TempDir()
	pack := filepath.Join(root, "repo", "pack")
	if err := os.MkdirAll(filepath.Join(pack, "prompts"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(root, "repo", ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	buffer := filepath.Join(pack, ".wop.yaml")
	d := Discovery{Home: root, UID: os.Getuid(), Unsaved: func(p string) bool { return p == buffer }}
	for start, want := range map[string]string{pack: buffer, filepath.Join(pack, "prompts"): buffer, filepath.Join(root, "repo"): ""} {
		if got, err := Find(start, d); err != nil || got.Path != want {
			t.Errorf("Find(%s) = %q, %v; want %q", start, got.Path, err, want)
		}
	}
	if got, _ := Find(pack, Discovery{Home: root, UID: os.Getuid()}); got.Path != "" {
		t.Errorf("without Unsaved: found %q", got.Path)
	}
	write(t, filepath.Join(pack, "prompts"), "registry: public\n")
	if got, _ := Find(filepath.Join(pack, "prompts"), d); got.Path != filepath.Join(pack, "prompts", ".wop.yaml") {
		t.Errorf("a file on disk below the buffer: found %q", got.Path)
	}
}
