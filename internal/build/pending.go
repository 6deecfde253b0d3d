package build

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/wop-cli/wop/internal/atomicfile"
)

// Pending is a source directory built for publish into a scratch folder
// inside --output. Its files replace those in --output only once the
// registry has accepted them (or already holds the same bytes, or a dry run
// passed): a conflict or a refused upload leaves the archive the user built
// before, perhaps the one that matches the registry, exactly as it was.
type Pending struct {
	outDir  string
	scratch string
	// Result is the build in the scratch folder.
	Result *Result
}

// The scratch folder is named .publish-<deadline>-<random>, <deadline>
// being when the publish that made it gives up (Unix seconds: the start
// plus --timeout; atomicfile.StampPattern). It lives in outDir so that keep
// can rename its files into place; a kill -9 leaves it behind, and the next
// publish into outDir removes it once its deadline is atomicfile.StaleGrace
// past: by then the publish that made it has been cancelled and has
// finished cleaning up, so nothing can be using it.
const (
	scratchPrefix = ".publish-"
	// noDeadline stands in for a context without one (publish always sets
	// one from --timeout).
	noDeadline = 24 * time.Hour
)

// WritePending writes plan into a scratch folder under outDir, first
// removing the scratch folders of publishes that can no longer be running
// and the temporary files of killed builds.
func WritePending(ctx context.Context, plan *Plan, outDir string, now time.Time) (*Pending, error) {
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return nil, err
	}
	removeStaleScratch(outDir, now)
	atomicfile.RemoveStaleTemps(outDir, now)
	deadline, ok := ctx.Deadline()
	if !ok {
		deadline = now.Add(noDeadline)
	}
	scratch, err := os.MkdirTemp(outDir, scratchPattern(deadline))
	if err != nil {
		return nil, err
	}
	res, err := plan.Write(ctx, scratch)
	if err != nil {
		os.RemoveAll(scratch)
		return nil, err
	}
	return &Pending{outDir: outDir, scratch: scratch, Result: res}, nil
}

// removeStaleScratch removes the scratch folders in outDir whose publish
// ended over atomicfile.StaleGrace ago. Only real directories named exactly
// as WritePending names them are touched.
func removeStaleScratch(outDir string, now time.Time) {
	atomicfile.RemoveStale(outDir, now, func(e fs.DirEntry) (time.Time, bool) {
		if !e.IsDir() {
			return time.Time{}, false
		}
		return scratchDeadline(e.Name())
	})
}

// scratchPattern is the os.MkdirTemp pattern of a scratch folder for a
// publish that gives up at deadline (MkdirTemp appends random digits).
func scratchPattern(deadline time.Time) string {
	return atomicfile.StampPattern(scratchPrefix, deadline)
}

// scratchDeadline reads the deadline from a scratch folder's name
// (.publish-<unix seconds>-<digits>); ok is false for any other name.
func scratchDeadline(name string) (deadline time.Time, ok bool) {
	return atomicfile.StampDeadline(name, scratchPrefix)
}

// Keep moves the built files into outDir as one set, replacing an older
// build's (atomicfile.Set: a kill midway never leaves a new archive beside
// an old signature).
func (p *Pending) Keep() (archive string, err error) {
	defer os.RemoveAll(p.scratch)
	set := atomicfile.NewSet(p.outDir)
	for _, f := range []string{p.Result.Archive, p.Result.Signature, p.Result.Bundle, p.Result.Manifest, p.Result.Sidecar} {
		if f != "" {
			set.Adopt(f, filepath.Base(f))
		}
	}
	if err := set.Commit(OldSet(strings.TrimSuffix(filepath.Base(p.Result.Archive), ".tgz"))); err != nil {
		return "", fmt.Errorf("move the build into %s: %w", p.outDir, err)
	}
	return filepath.Join(p.outDir, filepath.Base(p.Result.Archive)), nil
}

// Discard removes the scratch build; outDir is untouched.
func (p *Pending) Discard() { os.RemoveAll(p.scratch) }

// FinalPath is where the archive lands in outDir if kept.
func (p *Pending) FinalPath() string {
	return filepath.Join(p.outDir, filepath.Base(p.Result.Archive))
}
