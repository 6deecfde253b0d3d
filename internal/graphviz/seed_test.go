package graphviz

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// seedFixture lays out a helper with the precompiled folder beside it and
// returns the renderer and that folder.
func seedFixture(t *testing.T) (Renderer, string) {
	t.Helper()
	bin := t.TempDir()
	helper := filepath.Join(bin, "wop-graphviz")
	if err := os.WriteFile(helper, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(bin, PrecompiledDir)
	if err := os.MkdirAll(src, 0o755); err != nil {
		t.Fatal(err)
	}
	return Renderer{Helper: helper}, src
}

// TestSeedFileCap: a seed folder of more than maxSeedFiles files is copied
// only up to that many.
func TestSeedFileCap(t *testing.T) {
	r, src := seedFixture(t)
	for i := range maxSeedFiles + 4 {
		if err := os.WriteFile(filepath.Join(src, fmt.Sprintf("f%02d", i)), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cache := t.TempDir()
	r.seed(cache)
	got, err := os.ReadDir(cache)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != maxSeedFiles {
		t.Errorf("%d files copied, want %d", len(got), maxSeedFiles)
	}
}

// TestSeedBytesCapInAll: maxSeedBytes bounds the bytes copied in all, not
// each file: after a 1-byte file, a file of exactly maxSeedBytes (which
// alone would fit) is over what is left, and is not copied. The large
// file is sparse, so the test writes almost nothing unless the cap is
// broken.
func TestSeedBytesCapInAll(t *testing.T) {
	r, src := seedFixture(t)
	if err := os.WriteFile(filepath.Join(src, "a"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(src, "b"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(maxSeedBytes); err != nil {
		t.Fatal(err)
	}
	f.Close()
	cache := t.TempDir()
	r.seed(cache)
	if _, err := os.Stat(filepath.Join(cache, "a")); err != nil {
		t.Errorf("the small file is not copied: %v", err)
	}
	if _, err := os.Stat(filepath.Join(cache, "b")); err == nil {
		t.Errorf("a file over what is left of the %d bytes in all is copied", maxSeedBytes)
	}
}
