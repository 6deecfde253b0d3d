package publish

import (
	"archive/tar"
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/wop-cli/wop/internal/tarball"
	"github.com/wop-cli/wop/internal/testutil/hostile"
)

// tgz returns a gzipped tar holding a pack.json for version.
func tgz(t *testing.T, version string) []byte {
	t.Helper()
	manifest := `{"name":"community.acme.demo","version":"` + version + `"}`
	b, err := hostile.Archive([]hostile.Entry{{Name: "pack.json", Type: tar.TypeReg, Data: []byte(manifest)}})
	if err != nil {
		t.Fatal(err)
	}
	return b
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
