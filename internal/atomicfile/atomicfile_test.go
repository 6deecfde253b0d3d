package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNonRegularTargetIsRefused: a directory or symbolic link where the file
// should go is refused with a clear error and left as it was, never renamed
// over; no temporary file is left behind.
func TestNonRegularTargetIsRefused(t *testing.T) {
	dir := t.TempDir()
	manifest := filepath.Join(dir, "pack.json")
	if err := os.WriteFile(manifest, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("pack.json", filepath.Join(dir, "link")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	for name, want := range map[string]string{"sub": "a directory", "link": "a symbolic link"} {
		err := Write(filepath.Join(dir, name), []byte("new"), 0o644)
		if !errors.Is(err, ErrNotRegular) {
			t.Errorf("Write %s: %v, want ErrNotRegular", name, err)
		} else if got := err.Error(); !strings.Contains(got, want) {
			t.Errorf("Write %s: %q does not say %q", name, got, want)
		}
		s := NewSet(dir)
		if err := s.AddBytes(name, []byte("new"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := s.Commit(nil); !errors.Is(err, ErrNotRegular) {
			t.Errorf("Set.Commit %s: %v, want ErrNotRegular", name, err)
		}
	}
	if info, err := os.Lstat(filepath.Join(dir, "link")); err != nil || info.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v %v", info, err)
	}
	if got, _ := os.ReadFile(manifest); string(got) != "{}" {
		t.Errorf("the link's target changed: %q", got)
	}
	if got := names(t, dir); len(got) != 3 {
		t.Errorf("folder holds %v, want pack.json, link, sub only", got)
	}
	if err := Write(filepath.Join(dir, "new.json"), []byte("x"), 0o644); err != nil {
		t.Errorf("a new file: %v", err)
	}
	if err := Write(manifest, []byte("x"), 0o644); err != nil {
		t.Errorf("a regular file: %v", err)
	}
}
