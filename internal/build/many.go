package build

import (
	"cmp"
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync"

	"github.com/wop-cli/wop/internal/atomicfile"
	"github.com/wop-cli/wop/internal/tarball"
)

// Job is one pack of a many-pack build (Many).
type Job struct {
	Name   string // the pack as given: messages name it so
	Weight int64  // about how long it takes (its manifest's size)
	// Err is why the job failed; a job that failed before Many starts is
	// skipped.
	Err    error
	base   string  // <name>-<version>, once planned
	plan   *Plan   // kept for listing only
	staged *Staged // written to temporary names, not yet published
}

// ManyOptions say what a many-pack build does with each pack.
type ManyOptions struct {
	OutDir string
	List   bool // plan every pack and write nothing
	// Prepare lints and plans a job's pack; it runs for several jobs at
	// once.
	Prepare func(context.Context, *Job) (*Plan, error)
	// Listed (List) or Written (otherwise) is told each job's plan or
	// result, in the jobs' order; an error fails the job.
	Listed  func(*Job, *Plan) error
	Written func(*Job, *Result) error
}

// publishChunk is how many packs are staged before their sets are
// published together: each staged pack holds its files open until the
// batch syncs them, and a run of thousands of packs must not run out of
// file descriptors.
const publishChunk = 256

// Many builds every job in one process: packs are prepared and written to
// temporary names concurrently (at most GOMAXPROCS at a time, heaviest
// first, sharing deflate state), then published together in one
// atomicfile.Batch: one sync wave and one folder sync per step for all of
// them, where a pack at a time would wait for the disk several times
// each. A job that fails leaves its own outputs as they were and does not
// stop the others; two packs with the same name and version are refused
// before anything is published. Once ctx is cancelled no job starts.
func Many(ctx context.Context, jobs []*Job, opt ManyOptions) {
	compressors := new(tarball.Compressors)
	first := map[string]string{}
	for chunk := range slices.Chunk(jobs, publishChunk) {
		forEach(ctx, heaviestFirst(chunk), func(j *Job) { j.prepare(ctx, opt, compressors) })
		refuseSameOutputs(chunk, first)
		if opt.List {
			forEach(ctx, chunk, func(j *Job) { j.Err = opt.Listed(j, j.plan) })
			continue
		}
		publishStaged(ctx, chunk, opt.Written)
	}
}

// prepare plans the job's pack, then (unless listing) writes it to
// temporary names in the output folder.
func (j *Job) prepare(ctx context.Context, opt ManyOptions, compressors *tarball.Compressors) {
	plan, err := opt.Prepare(ctx, j)
	if err != nil {
		j.Err = err
		return
	}
	j.base = plan.BaseName()
	if opt.List {
		j.plan = plan
		return
	}
	plan.Compressors = compressors
	j.staged, j.Err = plan.Stage(ctx, opt.OutDir)
}

// publishStaged publishes every staged job in one batch and tells written
// what each wrote; after Ctrl-C (up to the removal of the old sets, see
// atomicfile.Batch) it publishes nothing.
func publishStaged(ctx context.Context, jobs []*Job, written func(*Job, *Result) error) {
	var b atomicfile.Batch
	for _, j := range jobs {
		if j.Err == nil {
			j.staged.Publish(&b, func(err error) { j.Err = err })
		}
	}
	b.Commit(ctx)
	for _, j := range jobs {
		if j.Err == nil {
			j.Err = written(j, j.staged.Result)
		}
	}
}

// heaviestFirst is jobs in the order to build them: the longest first
// (by their manifest's size, which linting and planning a pack mostly
// scale with), so the run does not end with one CPU busy on a large pack
// and the others idle.
func heaviestFirst(jobs []*Job) []*Job {
	order := slices.Clone(jobs)
	slices.SortStableFunc(order, func(a, b *Job) int { return cmp.Compare(b.Weight, a.Weight) })
	return order
}

// forEach runs fn on every job that has not failed yet, at most GOMAXPROCS
// at a time, and waits for all. Once ctx is cancelled (Ctrl-C) it starts
// no more: the jobs left fail with ctx's error.
func forEach(ctx context.Context, jobs []*Job, fn func(*Job)) {
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for _, j := range jobs {
		if j.Err != nil {
			continue
		}
		if j.Err = ctx.Err(); j.Err != nil {
			continue
		}
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			fn(j)
		})
	}
	wg.Wait()
}

// refuseSameOutputs fails every job whose archive has the name of an
// earlier job's (first holds the names of earlier chunks), removing what
// it staged: both would write the same files, and two sets replacing each
// other at once could leave one's archive beside the other's signature.
func refuseSameOutputs(jobs []*Job, first map[string]string) {
	for _, j := range jobs {
		if j.Err != nil {
			continue
		}
		if name, dup := first[j.base]; dup {
			j.Err = fmt.Errorf("%s has the name and version of %s (%s); not building it twice", j.Name, name, j.base)
			if j.staged != nil {
				j.staged.Abort()
			}
			continue
		}
		first[j.base] = j.Name
	}
}
