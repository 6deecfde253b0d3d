package packcmd

import (
	"context"
	"fmt"

	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/build"
	"github.com/wop-cli/wop/internal/lint"
	"github.com/wop-cli/wop/internal/lintrun"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/tarball"
)

// prepareBuild loads a source directory with its configuration, runs the
// lint gate (unless gate is lintrun.GateOff; quiet prints its errors alone),
// and plans the signed archive.
func prepareBuild(ctx context.Context, env *cli.Env, dir string, gate lintrun.Gate, quiet bool, keys *keyFlags) (*build.Plan, error) {
	base, err := buildLintOpts(env, keys)
	if err != nil {
		return nil, err
	}
	settings, err := lintrun.SettingsFor(env.Lint(), "", env.Abs(dir), base, lintrun.NewSettingsMemo(), nil)
	if err != nil {
		return nil, err
	}
	return preparePack(ctx, env, dir, settings, gate, quiet, keys)
}

// buildLintOpts are the lint options of a build's gate before any
// configuration applies: the spec tree --spec names.
func buildLintOpts(env *cli.Env, keys *keyFlags) (lint.Options, error) {
	tree, err := keys.tree()
	if err != nil {
		return lint.Options{}, err
	}
	opt := lintrun.LintOptions(env.Lint(), false)
	opt.Spec = tree
	return opt, nil
}

// keepBudget is how many bytes of a pack's files a build keeps after lint
// reads them, for the secret check and the archive (pack.Pack.Keep): real
// packs fit whole (the largest of 89 real ones is 0.5 MB), and a pack at
// the 50 MB ceiling is streamed past it, so a build of one holds no more
// than it did; at most GOMAXPROCS packs are being built at once.
const keepBudget = 2 << 20

// preparePack is prepareBuild once the pack's settings are known. keys is
// modified (the configuration's key id): give each pack its own copy.
func preparePack(ctx context.Context, env *cli.Env, dir string, settings *lintrun.Settings, gate lintrun.Gate, quiet bool, keys *keyFlags) (*build.Plan, error) {
	pk, err := loadPackWith(env, dir, settings.Limits)
	if err != nil {
		return nil, err
	}
	if pk.Archive != nil {
		return nil, cli.Usagef("%s is an archive; build takes a source directory ('%s' re-signs an archive)", dir, env.Invoked.Cmd("pack sign"))
	}
	pk.Keep(keepBudget)
	keys.configKeyID = settings.KeyID
	if err := gate.Check(env.Lint(), pk, settings, lintrun.Show{Color: env.Color, Quiet: quiet}); err != nil {
		return nil, err
	}
	return planFor(ctx, env, pk, keys)
}

// planFor reads the manifest, refuses secrets, then signs (the pack name
// decides whether an unsigned build is allowed) and plans the build.
func planFor(ctx context.Context, env *cli.Env, pk *pack.Pack, keys *keyFlags) (*build.Plan, error) {
	src, err := build.NewSource(pk)
	if err != nil {
		return nil, err
	}
	if err := src.CheckSecrets(keys.allowSecrets); err != nil {
		return nil, err
	}
	if note := src.LeftOutNote(); note != "" {
		fmt.Fprintln(env.ErrOut, "wop: note: "+note)
	}
	if warning, err := src.CRLFWarning(); err == nil && warning != "" { // a file that cannot be read stops the build below
		fmt.Fprintln(env.ErrOut, "wop: warning: "+warning)
	}
	if err := keys.refuseSigstoreV2(src); err != nil {
		return nil, err
	}
	s, err := keys.signing(ctx, env, src.Name)
	if err != nil {
		return nil, err
	}
	return src.Plan(s)
}

func loadPack(env *cli.Env, arg string) (*pack.Pack, error) {
	return loadPackWith(env, arg, tarball.DefaultLimits)
}

func loadPackWith(env *cli.Env, arg string, lim tarball.Limits) (*pack.Pack, error) {
	pk, err := pack.Load(env.Abs(arg), lim)
	if err != nil {
		return nil, cli.Usagef("%s: %v", arg, lintrun.WithoutPath(err))
	}
	pk.Display = pack.DisplayName(arg)
	return pk, nil
}

// gateArchive applies the secrets gate to a built archive about to be
// published, lint or no lint.
func gateArchive(env *cli.Env, pk *pack.Pack, allowed []string) error {
	plan, err := build.NewPlan(pk, build.Signing{})
	if err != nil {
		return cli.Usagef("%s: %v", env.Rel(pk.ArchivePath()), err)
	}
	return plan.CheckSecrets(allowed)
}
