package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
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
