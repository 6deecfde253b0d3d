package atomicfile

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestBatchFailureLeavesOtherSets: ten sets replace ten old sets in one
// batch; the seventh cannot be published (a folder sits where one of its
// files goes). It alone fails, its old set is left whole, the other nine
// are new and whole, and no temporary file is left.
func TestBatchFailureLeavesOtherSets(t *testing.T) {
	dir := t.TempDir()
	files := []string{".tgz", ".sig", ".json"}
	for i := range 10 {
		for _, ext := range files {
			os.WriteFile(filepath.Join(dir, fmt.Sprint(i)+ext), []byte("old"), 0o644)
		}
	}
	os.Remove(filepath.Join(dir, "6.json"))
	if err := os.Mkdir(filepath.Join(dir, "6.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	var b Batch
	errs := make([]error, 10)
	for i := range 10 {
		s := NewSet(dir)
		var old []string
		for _, ext := range files {
			if err := s.AddBytes(fmt.Sprint(i)+ext, []byte("new"), 0o644); err != nil {
				t.Fatal(err)
			}
			old = append(old, fmt.Sprint(i)+ext)
		}
		b.Add(s, old, func(err error) { errs[i] = err })
	}
	b.Commit(t.Context())
	for i, err := range errs {
		want := "new"
		if i == 6 {
			want = "old"
			if !errors.Is(err, ErrNotRegular) {
				t.Errorf("set 6: %v, want ErrNotRegular", err)
			}
		} else if err != nil {
			t.Errorf("set %d: %v", i, err)
		}
		for _, ext := range files {
			name := fmt.Sprint(i) + ext
			if name == "6.json" {
				continue
			}
			if data, err := os.ReadFile(filepath.Join(dir, name)); err != nil || string(data) != want {
				t.Errorf("%s: %q %v, want %q", name, data, err, want)
			}
		}
	}
	for _, n := range names(t, dir) {
		if strings.HasPrefix(n, ".") {
			t.Errorf("temporary file %s left", n)
		}
	}
}

// TestBatchRemovesAllBeforeRenaming: the sets of a batch pass each step
// together (all removals, one folder sync, then all renames), and within a
// set the order is Set's; only old files present are removed.
func TestBatchRemovesAllBeforeRenaming(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"a.tgz", "a.sig", "b.tgz"} {
		os.WriteFile(filepath.Join(dir, n), []byte("old"), 0o644)
	}
	var b Batch
	var steps []string
	for _, base := range []string{"a", "b"} {
		s := NewSet(dir)
		s.Hook = func(name string) { steps = append(steps, name) }
		s.AddBytes(base+".tgz", []byte("new"), 0o644)
		s.AddBytes(base+".sig", []byte("new"), 0o644)
		b.Add(s, []string{base + ".sig", base + ".tgz"}, func(err error) {
			if err != nil {
				t.Error(err)
			}
		})
	}
	b.Commit(t.Context())
	want := []string{"a.sig", "a.tgz", "b.tgz", "a.tgz", "a.sig", "b.tgz", "b.sig"}
	if !slices.Equal(steps, want) {
		t.Errorf("steps %v, want %v", steps, want)
	}
}

// TestBatchAbort: an aborted batch removes every set's temporary files,
// leaves the folder as it was and reports the reason to each set.
func TestBatchAbort(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.tgz"), []byte("old"), 0o644)
	var b Batch
	stop := errors.New("interrupted")
	var got []error
	for _, n := range []string{"a.tgz", "b.tgz"} {
		s := NewSet(dir)
		s.AddBytes(n, []byte("new"), 0o644)
		b.Add(s, []string{n}, func(err error) { got = append(got, err) })
	}
	b.Abort(stop)
	if len(got) != 2 || got[0] != stop || got[1] != stop {
		t.Errorf("outcomes %v", got)
	}
	if n := names(t, dir); !slices.Equal(n, []string{"a.tgz"}) {
		t.Errorf("folder %v", n)
	}
}

// TestBatchCommitCancelled: a batch committed after Ctrl-C (its context
// cancelled before the old sets are removed) publishes nothing, removes
// every temporary file and reports the context's error to each set; the
// process must not be left to end between removals and renames.
func TestBatchCommitCancelled(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.tgz"), []byte("old"), 0o644)
	os.WriteFile(filepath.Join(dir, "a.sig"), []byte("old"), 0o644)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	var b Batch
	var got []error
	for _, base := range []string{"a", "b"} {
		s := NewSet(dir)
		s.Hook = func(name string) { t.Errorf("%s changed after Ctrl-C", name) }
		s.AddBytes(base+".tgz", []byte("new"), 0o644)
		s.AddBytes(base+".sig", []byte("new"), 0o644)
		b.Add(s, []string{base + ".sig", base + ".tgz"}, func(err error) { got = append(got, err) })
	}
	b.Commit(ctx)
	if len(got) != 2 || !errors.Is(got[0], context.Canceled) || !errors.Is(got[1], context.Canceled) {
		t.Errorf("outcomes %v, want context.Canceled twice", got)
	}
	if n := names(t, dir); !slices.Equal(n, []string{"a.sig", "a.tgz"}) {
		t.Errorf("folder %v, want the old set alone", n)
	}
	for _, n := range []string{"a.tgz", "a.sig"} {
		if data, _ := os.ReadFile(filepath.Join(dir, n)); string(data) != "old" {
			t.Errorf("%s: %q, want the old file", n, data)
		}
	}
}
