package lintcache

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
	"time"
)

var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// clock is a settable Now for a Cache.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

// agedFile writes path with size bytes, last modified age before now.
func agedFile(t *testing.T, path string, size int, now time.Time, age time.Duration) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, make([]byte, size), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, now.Add(-age), now.Add(-age)); err != nil {
		t.Fatal(err)
	}
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

func entryName(i int) string { return fmt.Sprintf("%064x.json", i) }

// TestTrimRemovesWhatNoRunUses: entries unused for MaxAge and temporary
// files an interrupted write left are removed; recent ones, files that are
// not the cache's, and directories are left alone.
func TestTrimRemovesWhatNoRunUses(t *testing.T) {
	clk := &clock{epoch}
	c := Cache{Dir: t.TempDir(), Now: clk.now}
	lint := filepath.Join(c.Dir, "lint")
	files := map[string]struct {
		age  time.Duration
		kept bool
	}{
		entryName(1):                          {time.Hour, true},
		entryName(2):                          {MaxAge - time.Hour, true},
		entryName(3):                          {MaxAge + time.Hour, false},
		"." + entryName(4) + ".tmp-123":       {2 * tempAge, false},
		"." + entryName(5) + ".tmp-456":       {time.Minute, true}, // being written now
		"README.md":                           {10 * MaxAge, true},
		"abc.json":                            {10 * MaxAge, true},
		fmt.Sprintf("%064X.json", 0xabc):      {10 * MaxAge, true}, // not a key: upper case
		entryName(7) + ".bak":                 {10 * MaxAge, true},
		filepath.Join(entryName(8), "x.json"): {10 * MaxAge, true},
	}
	for name, f := range files {
		agedFile(t, filepath.Join(lint, name), 10, clk.t, f.age)
	}
	c.Trim()
	for name, f := range files {
		if got := exists(filepath.Join(lint, name)); got != f.kept {
			t.Errorf("%s (age %v): kept %v, want %v", name, f.age, got, f.kept)
		}
	}
}

// TestTrimRunsOncePerDay: a trim leaves a mark that makes the runs of the
// next day skip theirs (one stat each), whoever runs them.
func TestTrimRunsOncePerDay(t *testing.T) {
	clk := &clock{epoch}
	c := Cache{Dir: t.TempDir(), Now: clk.now}
	old := filepath.Join(c.Dir, "lint", entryName(1))
	agedFile(t, old, 10, clk.t, time.Hour)
	c.Trim()
	clk.t = clk.t.Add(MaxAge) // the entry is now stale...
	if err := os.Chtimes(filepath.Join(c.Dir, "lint", trimMarker), clk.t.Add(-time.Hour), clk.t.Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}
	Cache{Dir: c.Dir, Now: clk.now}.Trim() // ...but another run trimmed an hour ago
	if !exists(old) {
		t.Fatal("a trim ran within a day of the last one")
	}
	clk.t = clk.t.Add(trimEvery)
	c.Trim()
	if exists(old) {
		t.Fatal("a day after the last trim, a stale entry was not removed")
	}
}

// TestTrimCapsTheTotal: past the size cap, the least recently used
// entries go first, down to three quarters of the cap.
func TestTrimCapsTheTotal(t *testing.T) {
	dir := t.TempDir()
	for i := range 10 {
		agedFile(t, filepath.Join(dir, entryName(i)), 100, epoch, time.Duration(i)*time.Hour) // entry 9 is the oldest
	}
	trim(dir, epoch, MaxAge, 1000) // exactly at the cap: nothing to do
	for i := range 10 {
		if !exists(filepath.Join(dir, entryName(i))) {
			t.Fatalf("entry %d removed though the cache was within its cap", i)
		}
	}
	trim(dir, epoch, MaxAge, 900)
	for i := range 10 {
		if want := i < 6; exists(filepath.Join(dir, entryName(i))) != want {
			t.Errorf("entry %d (%dh old): kept %v, want %v (the 4 oldest go, leaving 600 of a 900 cap)", i, i, !want, want)
		}
	}
}

// TestHitsKeepEntries: a hit marks its entry used (at most once a day), so
// an entry every run needs is never trimmed, however old it is.
func TestHitsKeepEntries(t *testing.T) {
	clk := &clock{epoch}
	c := Cache{Dir: t.TempDir(), Now: clk.now}
	used, unused := mustKey(t, "used"), mustKey(t, "unused")
	c.Store(used, findings)
	c.Store(unused, findings)
	for _, k := range []string{used, unused} {
		if err := os.Chtimes(c.path(k), epoch, epoch); err != nil {
			t.Fatal(err)
		}
	}
	clk.t = epoch.Add(MaxAge - time.Hour)
	if got, ok := c.Load(used); !ok || !reflect.DeepEqual(got, findings) {
		t.Fatalf("Load = %v, %v", got, ok)
	}
	clk.t = epoch.Add(MaxAge + time.Hour)
	c.Trim()
	if !exists(c.path(used)) || exists(c.path(unused)) {
		t.Errorf("after a trim: used entry kept %v (want true), unused kept %v (want false)", exists(c.path(used)), exists(c.path(unused)))
	}
	info, err := os.Stat(c.path(used))
	if err != nil {
		t.Fatal(err)
	}
	c.Load(used) // marked used an hour ago: no write
	if again, _ := os.Stat(c.path(used)); !again.ModTime().Equal(info.ModTime()) {
		t.Error("a hit rewrote the mark it set an hour before")
	}
}

// TestTrimNeverFails: a cache that does not exist, is a file, or cannot be
// written is not trimmed, and nothing fails.
func TestTrimNeverFails(t *testing.T) {
	file := filepath.Join(t.TempDir(), "not-a-dir")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	readOnly := t.TempDir()
	stale := filepath.Join(readOnly, "lint", entryName(1))
	agedFile(t, stale, 10, time.Now(), 2*MaxAge)
	if err := os.Chmod(filepath.Dir(stale), 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(filepath.Dir(stale), 0o755) })
	for _, dir := range []string{"", filepath.Join(t.TempDir(), "absent"), file, readOnly} {
		Cache{Dir: dir}.Trim()
	}
	if !exists(stale) && os.Geteuid() != 0 {
		t.Error("an unwritable cache was changed")
	}
}

// TestTrimWhileOthersUseTheCache: runs storing, loading and trimming the
// same cache at once only ever see a miss or the right findings.
func TestTrimWhileOthersUseTheCache(t *testing.T) {
	dir := t.TempDir()
	keys := []string{mustKey(t, 1), mustKey(t, 2), mustKey(t, 3)}
	var wg sync.WaitGroup
	for w := range 6 {
		wg.Go(func() {
			// Every run's clock is far enough ahead that all entries are
			// stale and each trim is due.
			now := time.Now().Add(time.Duration(w+1) * 2 * MaxAge)
			c := Cache{Dir: dir, Now: func() time.Time { return now }}
			for i := range 100 {
				k := keys[(i+w)%len(keys)]
				switch i % 3 {
				case 0:
					c.Store(k, findings)
				case 1:
					if got, ok := c.Load(k); ok && !reflect.DeepEqual(got, findings) {
						t.Errorf("torn hit: %v", got)
					}
				default:
					os.Remove(filepath.Join(dir, "lint", trimMarker))
					c.Trim()
				}
			}
		})
	}
	wg.Wait()
}
