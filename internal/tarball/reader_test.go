package tarball

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"
)

type entry struct {
	hdr  tar.Header
	data string
}

// build makes a .tgz with archive/tar, which can write the legacy and hostile
// shapes the reader must handle.
func build(t testing.TB, entries ...entry) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, e := range entries {
		h := e.hdr
		if h.Typeflag == 0 {
			h.Typeflag = tar.TypeReg
		}
		if h.Typeflag == tar.TypeReg {
			h.Size = int64(len(e.data))
		}
		if h.Mode == 0 {
			h.Mode = 0o644
		}
		if err := tw.WriteHeader(&h); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write([]byte(e.data)); err != nil {
			t.Fatal(err)
		}
	}
	tw.Close()
	zw.Close()
	return buf.Bytes()
}

func file(name, data string) entry { return entry{tar.Header{Name: name}, data} }

func TestReadIssues(t *testing.T) {
	long := "prompts/" + string(bytes.Repeat([]byte("a"), 120)) + ".md"
	tests := []struct {
		name     string
		entries  []entry
		rule     string
		refused  bool
		keptFile string
	}{
		{"dot slash", []entry{file("./pack.json", "{}")}, "archive-legacy-entry", false, "pack.json"},
		{"directory", []entry{{tar.Header{Name: "prompts/", Typeflag: tar.TypeDir}, ""}, file("pack.json", "{}")}, "archive-legacy-entry", false, "pack.json"},
		{"owner", []entry{{tar.Header{Name: "pack.json", Uid: 501, ModTime: time.Unix(1e9, 0)}, "{}"}}, "archive-legacy-entry", false, "pack.json"},
		{"dotdot", []entry{file("../evil", "x"), file("pack.json", "{}")}, "archive-unsafe-path", true, "pack.json"},
		{"absolute", []entry{file("/etc/passwd", "x"), file("pack.json", "{}")}, "archive-unsafe-path", true, "pack.json"},
		{"symlink", []entry{{tar.Header{Name: "x", Typeflag: tar.TypeSymlink, Linkname: "/etc"}, ""}, file("pack.json", "{}")}, "archive-link", true, "pack.json"},
		{"device", []entry{{tar.Header{Name: "d", Typeflag: tar.TypeChar}, ""}, file("pack.json", "{}")}, "archive-special-file", true, "pack.json"},
		{"duplicate", []entry{file("pack.json", `{"a":1}`), file("pack.json", `{"a":2}`)}, "archive-duplicate-entry", true, "pack.json"},
		{"long name", []entry{file(long, "x"), file("pack.json", "{}")}, "archive-extended-header", true, "pack.json"},
		{"big manifest", []entry{file("pack.json", string(bytes.Repeat([]byte(" "), 300<<10)))}, "archive-entry-too-large", true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := Read(bytes.NewReader(build(t, tt.entries...)), DefaultLimits)
			if err != nil {
				t.Fatal(err)
			}
			var found bool
			for _, is := range a.Issues {
				if is.Rule == tt.rule && is.Refused == tt.refused {
					found = true
				}
			}
			if !found {
				t.Errorf("issues %+v lack %s (refused=%v)", a.Issues, tt.rule, tt.refused)
			}
			if tt.keptFile != "" {
				e, ok := a.Find(tt.keptFile)
				if !ok {
					t.Fatalf("%s not kept", tt.keptFile)
				}
				if tt.name == "duplicate" && string(e.Data) != `{"a":1}` {
					t.Errorf("duplicate kept %s, want the first", e.Data)
				}
			}
		})
	}
}

func TestReadRefusesNonGzipAndBombs(t *testing.T) {
	if _, err := Read(bytes.NewReader([]byte("plain text")), DefaultLimits); !errors.Is(err, ErrNotGzip) {
		t.Errorf("plain text: %v", err)
	}
	lim := Limits{MaxEntry: 1 << 20, MaxManifest: 1 << 20, MaxTotal: 2 << 20}
	var big []entry
	for i := range 4 {
		big = append(big, file(string(rune('a'+i))+".bin", string(make([]byte, 900<<10))))
	}
	if _, err := Read(bytes.NewReader(build(t, big...)), lim); !errors.Is(err, ErrTooLarge) {
		t.Errorf("over MaxTotal: %v", err)
	}
}

// TestScanReusesWhatItDrops: entries keep refuses are read over by the next
// ones, so a Scan keeping only small entries allocates about one large
// entry, not the archive; the small entries kept after a large one hold
// their own bytes, not the shared buffer's.
func TestScanReusesWhatItDrops(t *testing.T) {
	const n, size = 16, 256 << 10
	var entries []entry
	for i := range n {
		entries = append(entries, file(fmt.Sprintf("prompts/p%02d.md", i), strings.Repeat(string(rune('a'+i)), size)),
			file(fmt.Sprintf("small/s%02d.txt", i), fmt.Sprintf("small %d", i)))
	}
	tgz := build(t, entries...)
	keep := func(e Entry) bool { return e.Size < 1024 }
	Scan(bytes.NewReader(tgz), DefaultLimits, keep) // warm up (the gzip reader's tables)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	a, err := Scan(bytes.NewReader(tgz), DefaultLimits, keep)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 4*size {
		t.Errorf("scanning %d entries of %d KB, keeping none of them, allocated %d KB", n, size>>10, alloc>>10)
	}
	for i, e := range a.Entries {
		if want := entries[i]; e.Name != want.hdr.Name || e.Size != int64(len(want.data)) || keep(e) != (string(e.Data) == want.data) {
			t.Errorf("entry %d: %q, %d bytes, %q; want %q, %d bytes", i, e.Name, e.Size, e.Data, want.hdr.Name, len(want.data))
		}
	}
}

// TestEntryCeiling: one entry past MaxEntries refuses the archive, whatever
// the entries' types and sizes; at the ceiling it is read. A Limits without
// MaxEntries keeps the default ceiling.
func TestEntryCeiling(t *testing.T) {
	entries := []entry{file("pack.json", "{}"), {tar.Header{Name: "prompts/", Typeflag: tar.TypeDir}, ""}, file("prompts/a.md", ""), file("prompts/b.md", "")}
	tgz := build(t, entries...)
	lim := DefaultLimits
	lim.MaxEntries = len(entries)
	if a, err := Read(bytes.NewReader(tgz), lim); err != nil || len(a.Entries) != 3 {
		t.Fatalf("at the ceiling: %v", err)
	}
	lim.MaxEntries--
	_, err := Read(bytes.NewReader(tgz), lim)
	var tooMany *TooManyEntriesError
	if !errors.As(err, &tooMany) || err.Error() != "more than 3 entries (the entry ceiling, limits.entries); nothing past the ceiling was read" {
		t.Fatalf("past the ceiling: %v", err)
	}
	if (Limits{}).Entries() != DefaultMaxEntries || DefaultLimits.Entries() != DefaultMaxEntries {
		t.Error("an unset MaxEntries is not the default ceiling")
	}
}

// TestFindIsIndexed: Find costs the same in an archive of 64 entries and
// of 16,000 (lint reads every file through it: a linear search made lint
// quadratic in the entry count). Duplicates resolve to the first entry.
func TestFindIsIndexed(t *testing.T) {
	archive := func(n int) *Archive {
		entries := []entry{file("pack.json", "first"), file("pack.json", "second")}
		for i := range n {
			entries = append(entries, file(fmt.Sprintf("prompts/p%d.md", i), ""))
		}
		lim := DefaultLimits
		lim.MaxEntries = n + 2
		a, err := Read(bytes.NewReader(build(t, entries...)), lim)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	small, large := archive(64), archive(16_000)
	if e, ok := large.Find("pack.json"); !ok || string(e.Data) != "first" {
		t.Errorf("Find(pack.json) = %q, %v; want the first entry", e.Data, ok)
	}
	if _, ok := large.Find("prompts/none.md"); ok {
		t.Error("found an entry that is not there")
	}
	cost := func(a *Archive) time.Duration {
		best := time.Duration(1<<63 - 1)
		for range 3 {
			start := time.Now()
			for range 20_000 {
				a.Find("prompts/none.md")
			}
			best = min(best, time.Since(start))
		}
		return best
	}
	// A linear search is 250 times slower in the large archive; an index
	// is about as fast in both (the margin absorbs a loaded machine).
	if s, l := cost(small), cost(large); l > 20*s+time.Millisecond {
		t.Errorf("20,000 lookups: %v in 64 entries, %v in 16,000", s, l)
	}
}
