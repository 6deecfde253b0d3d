package packcmd

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/build"
	"github.com/wop-cli/wop/internal/lintrun"
	"github.com/wop-cli/wop/internal/ordered"
	"github.com/wop-cli/wop/internal/pack"
)

// packBuild is one pack of `wop pack build DIR1 DIR2 ...`: its own copy of
// the signing flags and its output, held until its turn to print.
type packBuild struct {
	job      build.Job
	env      *cli.Env // the command's, writing into log
	log      *ordered.Log
	keys     keyFlags
	settings *lintrun.Settings
}

// manyOptions are what a build of many packs is asked to do.
type manyOptions struct {
	env    *cli.Env
	dirs   []string
	outDir string
	list   bool
	gate   lintrun.Gate
	quiet  bool // the gate prints errors alone
	keys   keyFlags
}

// buildMany builds every directory of o.dirs in one process (build.Many):
// the key is read, and each configuration loaded, once. What each pack
// prints comes out whole and in argument order, whatever order they finish
// in.
func buildMany(ctx context.Context, o manyOptions) error {
	base, err := buildLintOpts(o.env, &o.keys)
	if err != nil {
		return err
	}
	packs := make([]*packBuild, len(o.dirs))
	jobs := make([]*build.Job, len(o.dirs))
	of := map[*build.Job]*packBuild{}
	seen := lintrun.NewSettingsMemo()
	for i, dir := range o.dirs {
		p := &packBuild{job: build.Job{Name: dir}, log: &ordered.Log{}, keys: o.keys}
		env := *o.env
		env.Out, env.ErrOut = p.log.Writers()
		p.env = &env
		p.settings, p.job.Err = lintrun.SettingsFor(p.env.Lint(), "", o.env.Abs(dir), base, seen, nil)
		if info, err := os.Stat(filepath.Join(o.env.Abs(dir), pack.ManifestName)); err == nil {
			p.job.Weight = info.Size()
		}
		packs[i], jobs[i], of[&p.job] = p, &p.job, p
	}
	build.Many(ctx, jobs, build.ManyOptions{
		OutDir: o.env.Abs(o.outDir), List: o.list,
		Prepare: func(ctx context.Context, j *build.Job) (*build.Plan, error) {
			p := of[j]
			return preparePack(ctx, p.env, j.Name, p.settings, o.gate, o.quiet, &p.keys)
		},
		Listed:  func(j *build.Job, plan *build.Plan) error { return plan.WriteList(of[j].env.Out) },
		Written: func(j *build.Job, res *build.Result) error { res.WriteText(of[j].env.Out, of[j].env.Rel); return nil },
	})
	return replayMany(ctx, o.env, packs)
}

// replayMany prints what each pack printed, in argument order, and says
// which failed.
func replayMany(ctx context.Context, env *cli.Env, packs []*packBuild) error {
	failed := false
	for _, p := range packs {
		p.log.Replay(env.Out, env.ErrOut)
		// After Ctrl-C every unfinished pack fails alike: say it once.
		if p.job.Err != nil && ctx.Err() == nil {
			fmt.Fprintf(env.ErrOut, "wop: %s: %v\n", p.job.Name, p.job.Err)
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
