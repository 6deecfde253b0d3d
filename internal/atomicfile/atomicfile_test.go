package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
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

// writeCalls is how many write system calls this process has made (Linux).
func writeCalls(t *testing.T) int {
	t.Helper()
	data, err := os.ReadFile("/proc/self/io")
	if err != nil {
		t.Skip("no /proc/self/io here")
	}
	for line := range strings.Lines(string(data)) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "syscw: "); ok {
			n, err := strconv.Atoi(v)
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Skip("no syscw in /proc/self/io")
	return 0
}

// TestWritesAreBuffered: a writer that writes a few hundred bytes at a
// time (as compress/flate does) costs a write(2) per buffer, not per call.
func TestWritesAreBuffered(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.tgz")
	chunk := make([]byte, 240)
	before := writeCalls(t)
	err := WriteFrom(path, 0o644, func(w io.Writer) error {
		for range 1000 {
			if _, err := w.Write(chunk); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := writeCalls(t) - before; got > 20 {
		t.Errorf("%d write calls for 240 KB in 240-byte writes, want a few", got)
	}
	if info, err := os.Stat(path); err != nil || info.Size() != 240000 {
		t.Errorf("wrote %v, %v; want 240000 bytes", info, err)
	}
}
