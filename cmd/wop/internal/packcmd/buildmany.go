package packcmd

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"runtime"
	"sync"

	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/build"
	"github.com/wop-cli/wop/internal/tarball"
)

// packBuild is one pack of `wop pack build DIR1 DIR2 ...`: its own copy of
// the signing flags and its output, held until its turn to print.
type packBuild struct {
	dir      string
	env      *cli.Env // the command's, writing into log
	log      *outputLog
	keys     keyFlags
	settings *packSettings
	plan     *build.Plan
	err      error
}

// buildMany builds every directory of o.dirs in one process: the key is
// read, and each configuration loaded, once; packs are linted and planned
// concurrently (at most GOMAXPROCS at a time), then written concurrently,
// sharing deflate state.
// What each pack prints comes out whole and in argument order, whatever
// order they finish in. A pack that fails leaves its own outputs as they
// were and does not stop the others; two packs with the same name and
// version are refused before anything is written.
func buildMany(ctx context.Context, o *buildOptions) error {
	base, err := buildLintOpts(o.env, &o.keys)
	if err != nil {
		return err
	}
	packs := make([]*packBuild, len(o.dirs))
	seen := newSettingsMemo()
	for i, dir := range o.dirs {
		p := &packBuild{dir: dir, log: &outputLog{}, keys: o.keys}
		p.env = p.log.env(o.env)
		p.settings, p.err = settingsFor(p.env, "", o.env.Abs(dir), base, seen)
		packs[i] = p
	}
	gate := gateFor(o.noLint, false)
	compressors := new(tarball.Compressors)
	forEachPack(packs, func(p *packBuild) {
		if p.plan, p.err = preparePack(ctx, p.env, p.dir, p.settings, gate, &p.keys); p.err == nil {
			p.plan.Compressors = compressors
		}
	})
	refuseSameOutputs(packs)
	forEachPack(packs, func(p *packBuild) { p.err = emit(ctx, p.env, o, p.plan) })
	failed := false
	for _, p := range packs {
		p.log.replay(o.env.Out, o.env.ErrOut)
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

// forEachPack runs fn on every pack that has not failed yet, at most
// GOMAXPROCS at a time, and waits for all.
func forEachPack(packs []*packBuild, fn func(*packBuild)) {
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for _, p := range packs {
		if p.err != nil {
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
// earlier pack's: both would write the same files, and two sets replacing
// each other at once could leave one's archive beside the other's
// signature.
func refuseSameOutputs(packs []*packBuild) {
	first := map[string]string{}
	for _, p := range packs {
		if p.err != nil {
			continue
		}
		name := p.plan.BaseName()
		if dir, dup := first[name]; dup {
			p.err = fmt.Errorf("%s has the name and version of %s (%s); not building it twice", p.dir, dir, name)
			continue
		}
		first[name] = p.dir
	}
}

// outputLog records what one pack writes to standard output and error, in
// order, so that packs built concurrently print one after another.
type outputLog struct {
	mu     sync.Mutex
	chunks []logChunk
}

type logChunk struct {
	toErr bool
	data  []byte
}

// env is base with Out and ErrOut writing into the log.
func (l *outputLog) env(base *cli.Env) *cli.Env {
	e := *base
	e.Out, e.ErrOut = logWriter{l, false}, logWriter{l, true}
	return &e
}

// replay writes the recorded output to out and errOut, in order.
func (l *outputLog) replay(out, errOut io.Writer) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, c := range l.chunks {
		w := out
		if c.toErr {
			w = errOut
		}
		w.Write(c.data)
	}
	l.chunks = nil
}

type logWriter struct {
	l     *outputLog
	toErr bool
}

func (w logWriter) Write(b []byte) (int, error) {
	w.l.mu.Lock()
	defer w.l.mu.Unlock()
	if n := len(w.l.chunks); n > 0 && w.l.chunks[n-1].toErr == w.toErr {
		w.l.chunks[n-1].data = append(w.l.chunks[n-1].data, b...)
	} else {
		w.l.chunks = append(w.l.chunks, logChunk{w.toErr, bytes.Clone(b)})
	}
	return len(b), nil
}
