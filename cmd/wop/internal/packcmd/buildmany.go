package packcmd

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"

	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/atomicfile"
	"github.com/wop-cli/wop/internal/build"
	"github.com/wop-cli/wop/internal/ordered"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/tarball"
)

// packBuild is one pack of `wop pack build DIR1 DIR2 ...`: its own copy of
// the signing flags and its output, held until its turn to print.
type packBuild struct {
	dir      string
	env      *cli.Env // the command's, writing into log
	log      *ordered.Log
	keys     keyFlags
	settings *packSettings
	weight   int64         // the size of its pack.json: about how long it takes
	base     string        // <name>-<version>, once planned
	plan     *build.Plan   // kept for --list only
	staged   *build.Staged // written to temporary names, not yet published
	err      error
}

// manyOptions are what a build of many packs is asked to do.
type manyOptions struct {
	env    *cli.Env
	dirs   []string
	outDir string
	list   bool
	gate   lintGateMode
	keys   keyFlags
}

// publishChunk is how many packs are staged before their sets are
// published together: each staged pack holds its files open until the
// batch syncs them, and a run of thousands of packs must not run out of
// file descriptors.
const publishChunk = 256

// buildMany builds every directory of o.dirs in one process: the key is
// read, and each configuration loaded, once; packs are linted, planned and
// written to temporary names concurrently (at most GOMAXPROCS at a time,
// sharing deflate state), then published together in one atomicfile.Batch:
// one sync wave and one folder sync per step for all of them, where a pack
// at a time would wait for the disk several times each.
// What each pack prints comes out whole and in argument order, whatever
// order they finish in. A pack that fails leaves its own outputs as they
// were and does not stop the others; two packs with the same name and
// version are refused before anything is published.
func buildMany(ctx context.Context, o manyOptions) error {
	base, err := buildLintOpts(o.env, &o.keys)
	if err != nil {
		return err
	}
	packs := make([]*packBuild, len(o.dirs))
	seen := newSettingsMemo()
	for i, dir := range o.dirs {
		p := &packBuild{dir: dir, log: &ordered.Log{}, keys: o.keys}
		env := *o.env
		env.Out, env.ErrOut = p.log.Writers()
		p.env = &env
		p.settings, p.err = settingsFor(p.env, "", o.env.Abs(dir), base, seen)
		if info, err := os.Stat(filepath.Join(o.env.Abs(dir), pack.ManifestName)); err == nil {
			p.weight = info.Size()
		}
		packs[i] = p
	}
	gate := o.gate
	compressors := new(tarball.Compressors)
	first := map[string]string{}
	for chunk := range slices.Chunk(packs, publishChunk) {
		forEachPack(ctx, heaviestFirst(chunk), func(p *packBuild) { p.prepare(ctx, o, gate, compressors) })
		refuseSameOutputs(chunk, first)
		if o.list {
			forEachPack(ctx, chunk, func(p *packBuild) { p.err = printPlan(p.env, p.plan) })
			continue
		}
		publishStaged(ctx, chunk)
	}
	failed := false
	for _, p := range packs {
		p.log.Replay(o.env.Out, o.env.ErrOut)
		// After Ctrl-C every unfinished pack fails alike: say it once.
		if p.err != nil && ctx.Err() == nil {
			fmt.Fprintf(o.env.ErrOut, "wop: %s: %v\n", p.dir, p.err)
			failed = true
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if failed {
		return cli.ErrFindings
	}
	return nil
}

// prepare lints and plans the pack, then (unless --list) writes it to
// temporary names in the output folder.
func (p *packBuild) prepare(ctx context.Context, o manyOptions, gate lintGateMode, compressors *tarball.Compressors) {
	plan, err := preparePack(ctx, p.env, p.dir, p.settings, gate, &p.keys)
	if err != nil {
		p.err = err
		return
	}
	p.base = plan.BaseName()
	if o.list {
		p.plan = plan
		return
	}
	plan.Compressors = compressors
	p.staged, p.err = plan.Stage(ctx, p.env.Abs(o.outDir))
}

// publishStaged publishes every staged pack in one batch and says what each
// wrote; after Ctrl-C (up to the removal of the old sets, see
// atomicfile.Batch) it publishes nothing.
func publishStaged(ctx context.Context, packs []*packBuild) {
	var b atomicfile.Batch
	for _, p := range packs {
		if p.err == nil {
			p.staged.Publish(&b, func(err error) { p.err = err })
		}
	}
	b.Commit(ctx)
	for _, p := range packs {
		if p.err == nil {
			p.err = printResult(p.env, p.staged.Result)
		}
	}
}

// heaviestFirst is packs in the order to build them: the longest first
// (by their manifest's size, which linting and planning a pack mostly
// scale with), so the run does not end with one CPU busy on a large pack
// and the others idle. Output keeps argument order whatever this order.
func heaviestFirst(packs []*packBuild) []*packBuild {
	order := slices.Clone(packs)
	slices.SortStableFunc(order, func(a, b *packBuild) int { return cmp.Compare(b.weight, a.weight) })
	return order
}

// forEachPack runs fn on every pack that has not failed yet, at most
// GOMAXPROCS at a time, and waits for all. Once ctx is cancelled (Ctrl-C)
// it starts no more: the packs left fail with ctx's error.
func forEachPack(ctx context.Context, packs []*packBuild, fn func(*packBuild)) {
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for _, p := range packs {
		if p.err != nil {
			continue
		}
		if p.err = ctx.Err(); p.err != nil {
			continue
		}
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			fn(p)
		})
	}
	wg.Wait()
}

// refuseSameOutputs fails every pack whose archive has the name of an
// earlier pack's (first holds the names of earlier chunks), removing what
// it staged: both would write the same files, and two sets replacing each
// other at once could leave one's archive beside the other's signature.
func refuseSameOutputs(packs []*packBuild, first map[string]string) {
	for _, p := range packs {
		if p.err != nil {
			continue
		}
		if dir, dup := first[p.base]; dup {
			p.err = fmt.Errorf("%s has the name and version of %s (%s); not building it twice", p.dir, dir, p.base)
			if p.staged != nil {
				p.staged.Abort()
			}
			continue
		}
		first[p.base] = p.dir
	}
}
