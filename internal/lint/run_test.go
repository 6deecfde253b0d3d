package lint

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/wop-cli/wop/internal/pack"
)

func TestRunAllKeepsJobOrder(t *testing.T) {
	var jobs []Job
	for i := range 25 { // more jobs than workers
		jobs = append(jobs, Job{Path: fmt.Sprintf("pack-%d", i)})
	}
	var loads atomic.Int64
	results := RunAll(jobs, func(j Job) (*pack.Pack, error) {
		loads.Add(1)
		return nil, errors.New(j.Path)
	})
	if loads.Load() != int64(len(jobs)) || len(results) != len(jobs) {
		t.Fatalf("%d loads, %d results for %d jobs", loads.Load(), len(results), len(jobs))
	}
	for i, r := range results {
		if r.Path != jobs[i].Path || r.Err == nil || r.Err.Error() != jobs[i].Path {
			t.Errorf("result %d = %+v, want job %s's", i, r, jobs[i].Path)
		}
	}
}

// TestSiblingMemoAnswersAsTheDisk: RunAll's memo gives each parent
// directory the answer packsIn gives, and asks the disk once per directory.
func TestSiblingMemoAnswersAsTheDisk(t *testing.T) {
	root := t.TempDir()
	folder, lone := filepath.Join(root, "folder"), filepath.Join(root, "lone")
	for _, d := range []string{filepath.Join(folder, "a"), filepath.Join(folder, "b"), filepath.Join(lone, "c")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, pack.ManifestName), []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	m := newSiblingMemo()
	for _, dir := range []string{folder, lone, folder, lone} {
		if got, want := m.hasPacks(dir), packsIn(os.DirFS(dir), 2) >= 2; got != want {
			t.Errorf("hasPacks(%s) = %v, the disk says %v", dir, got, want)
		}
	}
	if len(m.dirs) != 2 || !m.dirs[folder] || m.dirs[lone] {
		t.Errorf("memo = %v, want folder true and lone false", m.dirs)
	}
	var none *siblingMemo
	if !none.hasPacks(folder) || none.hasPacks(lone) {
		t.Error("a nil memo does not ask the disk")
	}
}
