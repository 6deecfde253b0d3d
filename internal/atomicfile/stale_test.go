package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRemoveStaleTemps: a run killed between writing a temporary file and
// renaming it leaves .NAME.tmp-<deadline>-<random> behind; the next run
// removes it once its deadline is an hour past, and touches nothing else:
// not a live run's file, not a name it did not make, not a directory, not
// a symlink (nor what it points at).
func TestRemoveStaleTemps(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	temp := func(target string, deadline time.Time, random string) string {
		return fmt.Sprintf(".%s.tmp-%d-%s", target, deadline.Unix(), random)
	}
	old := now.Add(-2 * time.Hour)
	dir, elsewhere := t.TempDir(), t.TempDir()
	files := map[string]bool{ // name -> removed
		temp("acme.demo-1.0.0.tgz", old, "12345"):                  true,
		temp("a.tmp-b", old, "1"):                                  true,  // the target's own name holds the marker
		temp("acme.demo-1.0.0.sig", now.Add(-30*time.Minute), "1"): false, // within the grace hour
		temp("acme.demo-1.0.0.json", now.Add(time.Hour), "2"):      false, // a run still writing
		temp("x", old, "12x"):                                      false, // not a name wop makes
		temp("x", old, ""):                                         false,
		".x.tmp-123456":                                            false, // no deadline
		".x.tmp--5-1":                                              false,
		fmt.Sprintf("x.tmp-%d-3", old.Unix()):                      false, // no leading dot
		fmt.Sprintf("..tmp-%d-3", old.Unix()):                      false, // no target name
		fmt.Sprintf(".x.tmp-%d-3.bak", old.Unix()):                 false,
		fmt.Sprintf(".x.tmp-%d-3-4", old.Unix()):                   false,
		".x.tmp-9223372036854775807-5":                             false, // would wrap round into the past
		"acme.demo-1.0.0.tgz":                                      false,
	}
	for name := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	subdir := temp("sub", old, "7")
	if err := os.MkdirAll(filepath.Join(dir, subdir, "inner"), 0o755); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(elsewhere, "keep.txt")
	if err := os.WriteFile(target, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := temp("link", old, "8")
	if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
		t.Skip("no symlinks here:", err)
	}

	RemoveStaleTemps(dir, now)

	for name, removed := range files {
		_, err := os.Lstat(filepath.Join(dir, name))
		if gone := os.IsNotExist(err); gone != removed {
			t.Errorf("%s: removed %v, want %v", name, gone, removed)
		}
	}
	for _, name := range []string{subdir, filepath.Join(subdir, "inner"), link} {
		if _, err := os.Lstat(filepath.Join(dir, name)); err != nil {
			t.Errorf("%s was touched: %v", name, err)
		}
	}
	if _, err := os.Stat(target); err != nil {
		t.Errorf("the symlink's target was touched: %v", err)
	}
}

// TestTempNameCarriesDeadline: the temporary file Write and Set make is
// named with a deadline a day ahead, which RemoveStaleTemps reads back.
func TestTempNameCarriesDeadline(t *testing.T) {
	dir := t.TempDir()
	before := time.Now().Truncate(time.Second)
	s := NewSet(dir)
	defer s.Abort()
	if err := s.AddBytes("pack.json", []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	name := filepath.Base(s.pending[0].tmp)
	if !strings.HasPrefix(name, ".pack.json.tmp-") {
		t.Fatalf("temporary file %q", name)
	}
	got, ok := tempDeadline(name)
	if want := before.Add(tempLifetime); !ok || got.Before(want) || got.After(want.Add(time.Minute)) {
		t.Fatalf("tempDeadline(%s) = %v, %v; want about %v", name, got, ok, want)
	}
}

// TestExpiredTempIsNotRenamed: a temporary file whose deadline has passed
// may already have been removed by another run, so Commit refuses it,
// leaves the old file and no temporary file, and says why.
func TestExpiredTempIsNotRenamed(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.tgz"), []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	expired := filepath.Join(dir, fmt.Sprintf(".a.tgz.tmp-%d-1", time.Now().Add(-time.Minute).Unix()))
	if err := os.WriteFile(expired, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := NewSet(dir)
	s.Adopt(expired, "a.tgz")
	err := s.Commit([]string{"a.tgz"})
	if err == nil || !strings.Contains(err.Error(), "took longer than") {
		t.Fatalf("Commit: %v, want a deadline error", err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "a.tgz")); string(got) != "old" {
		t.Errorf("a.tgz now holds %q", got)
	}
	if got := names(t, dir); len(got) != 1 {
		t.Errorf("folder holds %v, want a.tgz only", got)
	}
}

// FuzzTempDeadline: a name is taken for a temporary file only if it is
// exactly one wop makes: "." and a target name, the marker, the deadline,
// "-" and digits; and the deadline never wraps round into the past.
func FuzzTempDeadline(f *testing.F) {
	for _, seed := range []string{".a.tgz.tmp-1800000000-123", ".a.tmp-1-1", ".a.tmp-123", ".a.tmp-01-1", ".a.tmp-+1-1", "..tmp-1-1", "x.tgz", ".a.tmp-9223372036854775807-1"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, name string) {
		deadline, ok := tempDeadline(name)
		if !ok {
			return
		}
		i := strings.LastIndex(name, tempMarker)
		random, found := strings.CutPrefix(name, StampPattern(name[:i+len(tempMarker)], deadline))
		if !found || i < 2 || name[0] != '.' || random == "" || strings.Trim(random, "0123456789") != "" {
			t.Fatalf("%q taken for a temporary file with deadline %d", name, deadline.Unix())
		}
		if !deadline.After(time.Unix(0, 0)) {
			t.Fatalf("%q: deadline %d wraps round into the past (%v)", name, deadline.Unix(), deadline)
		}
	})
}
