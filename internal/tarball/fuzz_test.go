package tarball

import (
	"bytes"
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
	})
}
