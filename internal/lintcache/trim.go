package lintcache

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// The cache's bounds. An entry a run uses is kept: Load refreshes its
// modification time (at most once per touchAfter, so a hit rarely writes),
// and Trim removes what no run has used for MaxAge, then the least recently
// used entries while the rest exceed MaxBytes.
const (
	MaxAge     = 30 * 24 * time.Hour
	MaxBytes   = 128 << 20
	trimEvery  = 24 * time.Hour
	touchAfter = 24 * time.Hour
	// tempAge is when a temporary file is an interrupted write's leftover,
	// not one being written now.
	tempAge = time.Hour
)

// trimMarker's modification time is when a run last trimmed the cache.
const trimMarker = "trim.txt"

// Trim prunes the cache (see MaxAge and MaxBytes). It is opportunistic and
// cheap: it does its work at most once per trimEvery across every wop
// process sharing the directory, and otherwise costs one stat. Removing an
// entry another run is about to read only makes that read a miss, so Trim
// needs no lock; every error is ignored, since trimming only saves space
// and must never fail or slow a lint.
func (c Cache) Trim() {
	if c.Dir == "" {
		return
	}
	dir := filepath.Join(c.Dir, "lint")
	marker := filepath.Join(dir, trimMarker)
	now := c.now()
	if info, err := os.Stat(marker); err == nil {
		if age := now.Sub(info.ModTime()); age >= 0 && age < trimEvery {
			return
		}
	}
	// Claim this trim before doing it, so concurrent runs skip theirs. No
	// lint directory (nothing stored yet) means nothing to trim.
	if err := os.WriteFile(marker, nil, 0o644); err != nil {
		return
	}
	_ = os.Chtimes(marker, now, now)
	trim(dir, now, MaxAge, MaxBytes)
}

// trim removes dir's entries older than maxAge and leftover temporary
// files, then the oldest entries while those left exceed maxBytes (down to
// three quarters of it, so that the next trims have little to do).
func trim(dir string, now time.Time, maxAge time.Duration, maxBytes int64) {
	list, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	type kept struct {
		name string
		size int64
		used time.Time
	}
	var entries []kept
	var total int64
	for _, e := range list {
		name := e.Name()
		entry, temp := isEntryName(name), strings.HasPrefix(name, ".") && strings.Contains(name, ".json.tmp-")
		if !entry && !temp || !e.Type().IsRegular() {
			continue // not the cache's: never touched
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		age := now.Sub(info.ModTime())
		if temp && age > tempAge || entry && age > maxAge {
			_ = os.Remove(filepath.Join(dir, name))
			continue
		}
		if entry {
			entries = append(entries, kept{name, info.Size(), info.ModTime()})
			total += info.Size()
		}
	}
	if total <= maxBytes {
		return
	}
	slices.SortFunc(entries, func(a, b kept) int { return a.used.Compare(b.used) })
	for _, e := range entries {
		if total <= maxBytes/4*3 {
			break
		}
		if os.Remove(filepath.Join(dir, e.name)) == nil {
			total -= e.size
		}
	}
}

// isEntryName says whether name is an entry's file name: a key (64
// lower-case hex digits) and ".json".
func isEntryName(name string) bool {
	key, ok := strings.CutSuffix(name, ".json")
	if !ok || len(key) != 64 {
		return false
	}
	for _, c := range key {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// touch marks the entry at path as used now, when its mark is older than
// touchAfter (or in the future); a failure is ignored (a read-only cache
// still serves hits).
func (c Cache) touch(path string, modTime time.Time) {
	now := c.now()
	if age := now.Sub(modTime); age >= 0 && age < touchAfter {
		return
	}
	_ = os.Chtimes(path, now, now)
}

func (c Cache) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}
