package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

// TestSetFailureLeavesTheOldSet: a file of the new set that cannot be
// written leaves the old set as it was and no temporary file.
func TestSetFailureLeavesTheOldSet(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"a.tgz", "a.sig"} {
		os.WriteFile(filepath.Join(dir, n), []byte("old"), 0o644)
	}
	s := NewSet(dir)
	if err := s.AddBytes("a.tgz", []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := s.Add("a.sig", 0o644, func(io.Writer) error { return errors.New("disk full") })
	if err == nil {
		t.Fatal("failing write succeeded")
	}
	s.Abort()
	if got := names(t, dir); !slices.Equal(got, []string{"a.sig", "a.tgz"}) {
		t.Errorf("folder %v", got)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "a.tgz")); string(data) != "old" {
		t.Errorf("a.tgz is %q", data)
	}
}

// TestSetCommitOrder: old files go in the order given, then new ones in
// the order added; a stale file the new set lacks is gone.
func TestSetCommitOrder(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"a.tgz", "a.sig", "a.json"} {
		os.WriteFile(filepath.Join(dir, n), []byte("old"), 0o644)
	}
	s := NewSet(dir)
	var steps []string
	s.Hook = func(name string) { steps = append(steps, name) }
	s.AddBytes("a.tgz", []byte("new"), 0o644)
	os.WriteFile(filepath.Join(dir, ".scratch"), []byte("new"), 0o644)
	s.Adopt(filepath.Join(dir, ".scratch"), "a.json")
	if err := s.Commit([]string{"a.json", "a.sig", "a.tgz"}); err != nil {
		t.Fatal(err)
	}
	if want := []string{"a.json", "a.sig", "a.tgz", "a.tgz", "a.json"}; !slices.Equal(steps, want) {
		t.Errorf("steps %v, want %v", steps, want)
	}
	if got := names(t, dir); !slices.Equal(got, []string{"a.json", "a.tgz"}) {
		t.Errorf("folder %v", got)
	}
}
