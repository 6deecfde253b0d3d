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

// openFiles counts this process's open file descriptors (Linux).
func openFiles(t *testing.T) int {
	t.Helper()
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc/self/fd here")
	}
	return len(fds)
}

// TestSetClosesEveryFile: Add keeps each file open until Commit syncs the
// set at once; Commit and Abort both close them all.
func TestSetClosesEveryFile(t *testing.T) {
	dir := t.TempDir()
	before := openFiles(t)
	for _, commit := range []bool{true, false} {
		s := NewSet(dir)
		for _, n := range []string{"a.tgz", "a.sig", "a.json"} {
			if err := s.AddBytes(n, []byte(n), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if got := openFiles(t); got != before+3 {
			t.Errorf("%d files open while the set is pending, want %d", got, before+3)
		}
		if commit {
			if err := s.Commit(nil); err != nil {
				t.Fatal(err)
			}
		} else {
			s.Abort()
		}
		if got := openFiles(t); got != before {
			t.Errorf("commit %v: %d files open after, want %d", commit, got, before)
		}
	}
	for _, n := range []string{"a.tgz", "a.sig", "a.json"} {
		if data, err := os.ReadFile(filepath.Join(dir, n)); err != nil || string(data) != n {
			t.Errorf("%s: %q %v", n, data, err)
		}
	}
	if got := names(t, dir); len(got) != 3 {
		t.Errorf("folder %v: a temporary file was left", got)
	}
}
