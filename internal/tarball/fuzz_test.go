package tarball

import (
	"bytes"
	"compress/gzip"
	"io"
	"path"
	"strings"
	"testing"
)

// FuzzRead checks that whatever the input (the gzip and tar layers, and what
// trails them), the reader stays within its caps and never yields an unsafe
// or duplicate entry name.
func FuzzRead(f *testing.F) {
	good := cat(regular(f, "pack.json", "{}"), endOfArchive)
	f.Add(build(f, file("pack.json", "{}"), file("prompts/a.md", "hi")))
	f.Add(build(f, file("./pack.json", "{}"), file("../x", "y")))
	f.Add([]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 2, 0xff})
	f.Add(cat(gz(f, good), []byte("trailing")))
	f.Add(cat(gz(f, good), gz(f, good)))
	f.Add(gz(f, cat(good, good)))
	f.Add(gz(f, cat(rawHeader(f, "././@LongLink", 'L', 10, nil), padded("pack.json\x00"), regular(f, "x", "{}"), endOfArchive)))
	f.Add(gz(f, cat(rawHeader(f, "pack.json", '0', 2, func(h []byte) { copy(h[345:], "x") }), padded("{}"), endOfArchive)))
	lim := Limits{MaxEntry: 64 << 10, MaxManifest: 16 << 10, MaxTotal: 256 << 10}
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := Read(bytes.NewReader(data), lim)
		if err != nil {
			return
		}
		var total int
		seen := map[string]bool{}
		for _, e := range a.Entries {
			total += len(e.Data)
			if int64(len(e.Data)) > lim.MaxEntry {
				t.Fatalf("entry %q is %d bytes", e.Name, len(e.Data))
			}
			if e.Name == "" || strings.HasPrefix(e.Name, "/") || path.Clean(e.Name) != e.Name || strings.Contains(e.Name, "..") && hasDotDot(e.Name) || seen[e.Name] {
				t.Fatalf("unsafe or duplicate name %q", e.Name)
			}
			seen[e.Name] = true
		}
		if int64(total) > lim.MaxTotal {
			t.Fatalf("read %d bytes, cap %d", total, lim.MaxTotal)
		}
		checkScanAgreesWithRead(t, data, lim, a)
	})
}

// checkScanAgreesWithRead: a Scan keeping every other entry (reading the
// next entries into the buffers of those it drops) lists what Read does,
// and each kept entry holds exactly its own bytes; the tar it tees is the
// whole uncompressed stream.
func checkScanAgreesWithRead(t *testing.T, data []byte, lim Limits, want *Archive) {
	t.Helper()
	i := 0
	var tarOut bytes.Buffer
	got, err := ScanTee(bytes.NewReader(data), lim, func(Entry) bool { i++; return i%2 == 0 }, &tarOut)
	if err != nil {
		t.Fatalf("Read accepted what Scan refuses: %v", err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if whole, err := io.ReadAll(zr); err != nil || !bytes.Equal(whole, tarOut.Bytes()) {
		t.Fatalf("the tar teed (%d bytes) is not the uncompressed stream (%d bytes, %v)", tarOut.Len(), len(whole), err)
	}
	if len(got.Entries) != len(want.Entries) || len(got.Issues) != len(want.Issues) {
		t.Fatalf("Scan: %d entries, %d issues; Read: %d, %d", len(got.Entries), len(got.Issues), len(want.Entries), len(want.Issues))
	}
	for j, e := range got.Entries {
		w := want.Entries[j]
		kept := j%2 == 1
		if e.Name != w.Name || e.Size != w.Size || kept != (e.Data != nil) || kept && !bytes.Equal(e.Data, w.Data) {
			t.Fatalf("entry %d: Scan %q (%d bytes, kept %v), Read %q (%d bytes)", j, e.Name, e.Size, e.Data != nil, w.Name, w.Size)
		}
	}
}
