package lintcache

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/safefile"
	"github.com/wop-cli/wop/internal/tarball"
)

func writeTgz(t *testing.T, path, version string) {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	m := []byte(`{"name":"community.acme.demo","version":"` + version + `"}`)
	if err := tw.WriteHeader(&tar.Header{Name: "pack.json", Mode: 0o644, Size: int64(len(m)), Typeflag: tar.TypeReg}); err != nil {
		t.Fatal(err)
	}
	tw.Write(m)
	tw.Close()
	zw.Close()
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestArchiveDigestIsOfTheLoadedFile: an archive swapped under its name
// after lint loaded it is refused, so lint results are never cached under
// the key of another archive.
func TestArchiveDigestIsOfTheLoadedFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.tgz")
	writeTgz(t, path, "1.0.0")
	pk, err := pack.Load(path, tarball.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Digest(pk); err != nil {
		t.Fatal(err)
	}
	writeTgz(t, filepath.Join(dir, "b.tgz"), "6.6.6")
	if err := os.Rename(filepath.Join(dir, "b.tgz"), path); err != nil {
		t.Fatal(err)
	}
	if _, err := Digest(pk); !errors.Is(err, safefile.ErrChanged) {
		t.Errorf("Digest after a swap = %v, want ErrChanged", err)
	}
}
