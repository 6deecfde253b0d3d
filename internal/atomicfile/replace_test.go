package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReplaceKeepsMode(t *testing.T) {
	p := filepath.Join(t.TempDir(), "pack.json")
	if err := os.WriteFile(p, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Replace(p, []byte("new")); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(p); string(got) != "new" || info.Mode().Perm() != 0o600 {
		t.Errorf("after Replace: %q, mode %v; want \"new\", 0600", got, info.Mode().Perm())
	}
	if err := Replace(filepath.Join(t.TempDir(), "absent"), []byte("x")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Replace of a missing file: err = %v, want ErrNotExist", err)
	}
}

// TestReplaceRefusesReadOnly: a 0444 file is neither rewritten nor has its
// mode carried over to new bytes; the error says why (callers name the file).
// Mode bits decide, so the test holds when run as root too.
func TestReplaceRefusesReadOnly(t *testing.T) {
	p := filepath.Join(t.TempDir(), "pack.json")
	if err := os.WriteFile(p, []byte("old"), 0o444); err != nil {
		t.Fatal(err)
	}
	for name, f := range map[string]func() error{
		"Replace":       func() error { return Replace(p, []byte("new")) },
		"CheckWritable": func() error { return CheckWritable(p) },
	} {
		err := f()
		if !errors.Is(err, ErrReadOnly) || !strings.HasPrefix(err.Error(), "read-only (mode 0444)") {
			t.Errorf("%s: err = %v, want ErrReadOnly", name, err)
		}
	}
	if got, _ := os.ReadFile(p); string(got) != "old" {
		t.Errorf("the read-only file now holds %q", got)
	}
}
