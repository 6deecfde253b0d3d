package lintcache

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/safefile"
	"github.com/wop-cli/wop/internal/tarball"
	"github.com/wop-cli/wop/internal/testutil/filetree"
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

// TestDirectoryDigestReusesOneBuffer: digesting a directory reads every
// file, but into one buffer, so a large pack costs about its largest file,
// not its size (a 50 MB pack's digest was all garbage); and each file's sum
// is still of its own contents.
func TestDirectoryDigestReusesOneBuffer(t *testing.T) {
	dir := t.TempDir()
	const n, size = 16, 1 << 20
	files := map[string]string{"pack.json": `{}`}
	for i := range n {
		files[fmt.Sprintf("prompts/p%02d.md", i)] = strings.Repeat(string(rune('a'+i)), size)
	}
	filetree.Write(t, dir, files)
	pk, err := pack.Load(dir, tarball.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	c, err := Digest(pk)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 3*size {
		t.Errorf("digesting %d files of %d KB allocated %d KB, want about one file", n, size>>10, alloc>>10)
	}
	for _, f := range c.Files {
		sum := sha256.Sum256([]byte(files[f.Name]))
		if f.Sum != hex.EncodeToString(sum[:]) || f.Err != "" {
			t.Errorf("%s: sum %s (%s), want the sha256 of its contents", f.Name, f.Sum, f.Err)
		}
	}
}
