package packcmd

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/wop-cli/wop/internal/atomicfile"
	"github.com/wop-cli/wop/internal/build"
)

// pendingBuild is a source directory built for publish into a scratch folder
// inside --output. Its files replace those in --output only once the
// registry has accepted them (or already holds the same bytes, or a dry run
// passed): a conflict or a refused upload leaves the archive the user built
// before, perhaps the one that matches the registry, exactly as it was.
type pendingBuild struct {
	outDir  string
	scratch string
	res     *build.Result
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

// writePending writes plan into a scratch folder under outDir, first
// removing the scratch folders of publishes that can no longer be running
// and the temporary files of killed builds.
func writePending(ctx context.Context, plan *build.Plan, outDir string, now time.Time) (*pendingBuild, error) {
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
	return &pendingBuild{outDir: outDir, scratch: scratch, res: res}, nil
}

// removeStaleScratch removes the scratch folders in outDir whose publish
// ended over atomicfile.StaleGrace ago. Only real directories named exactly
// as writePending names them are touched.
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

// keep moves the built files into outDir as one set, replacing an older
// build's (atomicfile.Set: a kill midway never leaves a new archive beside
// an old signature).
func (p *pendingBuild) keep() (archive string, err error) {
	defer os.RemoveAll(p.scratch)
	set := atomicfile.NewSet(p.outDir)
	for _, f := range []string{p.res.Archive, p.res.Signature, p.res.Bundle, p.res.Manifest, p.res.Sidecar} {
		if f != "" {
			set.Adopt(f, filepath.Base(f))
		}
	}
	if err := set.Commit(build.OldSet(strings.TrimSuffix(filepath.Base(p.res.Archive), ".tgz"))); err != nil {
		return "", fmt.Errorf("move the build into %s: %w", p.outDir, err)
	}
	return filepath.Join(p.outDir, filepath.Base(p.res.Archive)), nil
}

// discard removes the scratch build; outDir is untouched.
func (p *pendingBuild) discard() { os.RemoveAll(p.scratch) }

// finalPath is where the archive lands in outDir if kept.
func (p *pendingBuild) finalPath() string {
	return filepath.Join(p.outDir, filepath.Base(p.res.Archive))
}
