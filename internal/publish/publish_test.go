package publish

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"testing"

	"github.com/wop-cli/wop/internal/tarball"
)

// tgz returns a gzipped tar holding a pack.json for version.
func tgz(t *testing.T, version string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	manifest := []byte(`{"name":"community.acme.demo","version":"` + version + `"}`)
	if err := tw.WriteHeader(&tar.Header{Name: "pack.json", Mode: 0o644, Size: int64(len(manifest)), Typeflag: tar.TypeReg}); err != nil {
		t.Fatal(err)
	}
	tw.Write(manifest)
	tw.Close()
	zw.Close()
	return buf.Bytes()
}

// TestArchiveIsReadOnce: once ReadArchive has opened the .tgz, every later
// read (stage, the already-published check, the upload) sees those bytes,
// even when another archive is renamed over the path in between.
func TestArchiveIsReadOnce(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.tgz")
	ours := tgz(t, "1.0.0")
	if err := os.WriteFile(path, ours, 0o644); err != nil {
		t.Fatal(err)
	}
	a, err := ReadArchive(path, tarball.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	swapped := filepath.Join(dir, "evil.tgz")
	if err := os.WriteFile(swapped, tgz(t, "6.6.6"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(swapped, path); err != nil {
		t.Fatal(err)
	}
	if got, err := a.Bytes(); err != nil || !bytes.Equal(got, ours) {
		t.Errorf("Bytes after the swap: %d bytes, %v; want the archive that was hashed", len(got), err)
	}
	entries, err := a.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if m, _ := entries.Find("pack.json"); !bytes.Contains(m.Data, []byte(`"1.0.0"`)) {
		t.Errorf("ReadAll after the swap read %s", m.Data)
	}
	if same, err := a.SameTar(bytes.NewReader(ours)); err != nil || !same {
		t.Errorf("SameTar(our own bytes) after the swap = %v, %v", same, err)
	}
}
