package atomicfile

import (
	"context"
	"errors"
	"sync"
	"time"
)

// Batch publishes many Sets (a many-pack build's outputs) with the
// guarantees of each Set's Commit, paying for durability once for all of
// them rather than once per set:
//
//  1. every file of every set is synced in one concurrent wave, so the file
//     system can make them durable in a few journal commits;
//  2. each set's old files are removed, then each folder that lost one is
//     synced once;
//  3. each set's new files are renamed into place, then each folder synced
//     once.
//
// Each set stays whole on its own: a set that fails at any step is aborted
// (its old files stay, or, past step 2, it is left with files missing,
// never mixed) and the others go on. Cancelling the context (Ctrl-C)
// before step 2 publishes nothing and removes every temporary file; from
// step 2 on the batch runs to its end, which takes moments, not a sync
// wave. The zero value is an empty batch.
type Batch struct {
	sets []batched
}

type batched struct {
	set     *Set
	old     []string
	done    func(error)
	present []string // the old names found, to remove
	err     error
}

// syncers bounds the files synced at once: each sync holds a thread.
const syncers = 32

// Add queues s, replacing the old set old (as Set.Commit takes it); done is
// called with the set's outcome when the batch commits or aborts.
func (b *Batch) Add(s *Set, old []string, done func(error)) {
	b.sets = append(b.sets, batched{set: s, old: old, done: done})
}

// Commit publishes every queued set and reports each one's outcome to its
// done function. The batch is empty afterwards. Once ctx is cancelled the
// sync wave starts no more syncs and, if no old file was removed yet,
// every set is aborted with ctx's error: a wave of large files can outlast
// the grace a Ctrl-C allows, and the process must not be ended between
// removing the old sets and renaming the new ones in.
func (b *Batch) Commit(ctx context.Context) {
	b.syncAll(ctx)
	if err := ctx.Err(); err != nil {
		b.Abort(err)
		return
	}
	now := time.Now()
	b.each(func(e *batched) (err error) {
		e.present, err = e.set.prepare(e.old, now)
		return err
	})
	removedIn := map[string]bool{}
	b.each(func(e *batched) error {
		if len(e.present) > 0 {
			removedIn[e.set.dir] = true
		}
		return e.set.removeOld(e.present)
	})
	// The removals must reach the disk before any rename: a crash must not
	// keep a new archive and lose the removal of an old signature.
	for dir := range removedIn {
		_ = syncDir(dir)
	}
	renamedIn := map[string]bool{}
	b.each(func(e *batched) error {
		renamedIn[e.set.dir] = true
		return e.set.rename()
	})
	for dir := range renamedIn {
		_ = syncDir(dir)
	}
	for _, e := range b.sets {
		if e.done != nil {
			e.done(e.err)
		}
	}
	b.sets = nil
}

// Abort removes every queued set's temporary files, reporting err to each.
func (b *Batch) Abort(err error) {
	for _, e := range b.sets {
		e.set.Abort()
		if e.done != nil {
			e.done(err)
		}
	}
	b.sets = nil
}

// each runs fn on every set that has not failed, aborting a set fn fails.
func (b *Batch) each(fn func(*batched) error) {
	for i := range b.sets {
		e := &b.sets[i]
		if e.err != nil {
			continue
		}
		if e.err = fn(e); e.err != nil {
			e.set.Abort()
		}
	}
}

// syncAll syncs and closes every file the sets' Add wrote, concurrently:
// the file system can then make them durable in one journal commit, where
// syncing each as it is written waits for one commit per file. A set with
// a file that fails to sync is aborted. Once ctx is cancelled, the files
// not yet synced are closed unsynced: the batch is about to be aborted.
func (b *Batch) syncAll(ctx context.Context) {
	type job struct {
		set  int
		file int
	}
	jobs := make(chan job)
	errs := make([][]error, len(b.sets))
	for i, e := range b.sets {
		errs[i] = make([]error, len(e.set.pending))
	}
	var wg sync.WaitGroup
	for range syncers {
		wg.Go(func() {
			for j := range jobs {
				p := b.sets[j.set].set.pending[j.file]
				if err := ctx.Err(); err != nil {
					p.file.Close()
					errs[j.set][j.file] = err
					continue
				}
				errs[j.set][j.file] = syncClose(p.file, p.final)
			}
		})
	}
	for i, e := range b.sets {
		for k, p := range e.set.pending {
			if p.file != nil {
				jobs <- job{i, k}
			}
		}
	}
	close(jobs)
	wg.Wait()
	for i := range b.sets {
		e := &b.sets[i]
		for k := range e.set.pending {
			e.set.pending[k].file = nil // closed, whether or not the sync succeeded
		}
		if e.err = errors.Join(errs[i]...); e.err != nil {
			e.set.Abort()
		}
	}
}
