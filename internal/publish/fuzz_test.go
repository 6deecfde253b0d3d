package publish

import (
	"bytes"
	"compress/gzip"
	"testing"

	"github.com/wop-cli/wop/internal/tarball"
)

// FuzzTarDigest: whatever a registry serves as an archive, TarDigest
// returns or fails within the size ceiling, never panics or runs away.
func FuzzTarDigest(f *testing.F) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(make([]byte, 1024))
	zw.Close()
	f.Add(buf.Bytes())
	f.Add([]byte{0x1f, 0x8b, 8, 0})
	f.Add([]byte("not gzip"))
	lim := tarball.Limits{MaxEntry: 1 << 16, MaxManifest: 1 << 12, MaxTotal: 1 << 18}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := TarDigest(bytes.NewReader(data), lim)
		if err == nil && len(d) != 32 {
			t.Fatalf("digest of %d bytes", len(d))
		}
	})
}
