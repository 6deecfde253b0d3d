package build

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRemoveStaleScratch: a publish killed with -9 leaves its scratch
// folder in --output; the next publish removes it once its deadline is an
// hour past, and touches nothing else: not a live publish's folder, not a
// name it did not make, not a file, not a symlink (nor what it points at).
func TestRemoveStaleScratch(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	scratch := func(deadline time.Time, random string) string {
		return fmt.Sprintf(".publish-%d-%s", deadline.Unix(), random)
	}
	old := now.Add(-2 * time.Hour)
	out, elsewhere := t.TempDir(), t.TempDir()
	dirs := map[string]bool{ // name -> removed
		scratch(old, "12345"):                        true,
		scratch(now.Add(-30*time.Minute), "1"):       false, // within the grace hour
		scratch(now.Add(10*time.Minute), "2"):        false, // a publish still running
		scratch(old, "12x"):                          false, // not a name wop makes
		scratch(old, ""):                             false,
		".publish-123456":                            false, // no deadline
		".publish--5-1":                              false,
		fmt.Sprintf("publish-%d-3", old.Unix()):      false,
		fmt.Sprintf(".publish-%d-3.bak", old.Unix()): false,
		fmt.Sprintf(".publishx-%d-3", old.Unix()):    false,
		fmt.Sprintf(".publish-%d-3-4", old.Unix()):   false,
		// Far past any deadline wop writes (now + a Duration is before
		// year 2300): time.Unix wraps these into the past, which removed a
		// folder meant to last for ever.
		".publish-9223372036854775807-5": false,
		".publish-253402300800-6":        false,
	}
	for name := range dirs {
		if err := os.MkdirAll(filepath.Join(out, name, "inner"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	files := []string{scratch(old, "7"), "acme.demo-1.0.0.tgz"}
	for _, name := range files {
		if err := os.WriteFile(filepath.Join(out, name), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	target := filepath.Join(elsewhere, "keep.txt")
	if err := os.WriteFile(target, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := scratch(old, "8")
	if err := os.Symlink(elsewhere, filepath.Join(out, link)); err != nil {
		t.Skip("no symlinks here:", err)
	}

	removeStaleScratch(out, now)

	for name, removed := range dirs {
		_, err := os.Lstat(filepath.Join(out, name))
		if gone := os.IsNotExist(err); gone != removed {
			t.Errorf("%s: removed %v, want %v", name, gone, removed)
		}
	}
	for _, name := range append(files, link) {
		if _, err := os.Lstat(filepath.Join(out, name)); err != nil {
			t.Errorf("%s was touched: %v", name, err)
		}
	}
	if _, err := os.Stat(target); err != nil {
		t.Errorf("the symlink's target was touched: %v", err)
	}
}

// TestScratchNameCarriesDeadline: the name WritePending gives its scratch
// folder carries the publish's deadline, which removeStaleScratch reads
// back.
func TestScratchNameCarriesDeadline(t *testing.T) {
	deadline := time.Unix(1_800_000_600, 0)
	dir, err := os.MkdirTemp(t.TempDir(), scratchPattern(deadline))
	if err != nil {
		t.Fatal(err)
	}
	got, ok := scratchDeadline(filepath.Base(dir))
	if !ok || !got.Equal(deadline) {
		t.Fatalf("scratchDeadline(%s) = %v, %v; want %v", filepath.Base(dir), got, ok, deadline)
	}
}

// FuzzScratchDeadline: a name is taken for a scratch folder only if it is
// exactly one wop makes: the pattern for its deadline, then digits.
func FuzzScratchDeadline(f *testing.F) {
	for _, seed := range []string{".publish-1800000000-123", ".publish-1-1", ".publish-123", ".publish-01-1", ".publish-+1-1", ".publish--1-1", "x.tgz", ".publish-9223372036854775807-1"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, name string) {
		deadline, ok := scratchDeadline(name)
		if !ok {
			return
		}
		random, found := strings.CutPrefix(name, scratchPattern(deadline))
		if !found || random == "" || strings.Trim(random, "0123456789") != "" {
			t.Fatalf("%q taken for a scratch folder with deadline %d", name, deadline.Unix())
		}
		if !deadline.After(time.Unix(0, 0)) {
			t.Fatalf("%q: deadline %d wraps round into the past (%v)", name, deadline.Unix(), deadline)
		}
	})
}
