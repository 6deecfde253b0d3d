package safefile

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func write(t *testing.T, dir, name, data string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestReadRefusesAChangedFile(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "f", "abc")
	info, err := os.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	id := IdentityOf(info)
	if _, err := Read(p, Options{Max: 10, Want: &id}); err != nil {
		t.Fatalf("unchanged: %v", err)
	}
	// Same size, another file under the name. The old file is kept (moved
	// aside), so the filesystem cannot hand its inode to the new one.
	if err := os.Rename(p, p+".old"); err != nil {
		t.Fatal(err)
	}
	write(t, dir, "f", "xyz")
	os.Chtimes(p, info.ModTime(), info.ModTime())
	if _, err := Read(p, Options{Max: 10, Want: &id}); runtime.GOOS != "windows" && !errors.Is(err, ErrChanged) {
		t.Errorf("replaced: %v", err)
	}
}
