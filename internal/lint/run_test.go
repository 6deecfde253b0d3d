package lint

import (
	"errors"
	"fmt"
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
