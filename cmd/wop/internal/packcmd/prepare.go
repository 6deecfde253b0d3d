package packcmd

import (
	"context"
	"fmt"
	"slices"

	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/build"
	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/lint"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/publish"
	"github.com/wop-cli/wop/internal/report"
	"github.com/wop-cli/wop/internal/tarball"
)

// prepareBuild loads a source directory with its configuration, runs the
// lint gate (unless gate is gateOff), and plans the signed archive.
func prepareBuild(ctx context.Context, env *cli.Env, dir string, gate lintGateMode, keys *keyFlags) (*build.Plan, error) {
	base, err := buildLintOpts(env, keys)
	if err != nil {
		return nil, err
	}
	settings, err := settingsFor(env, "", env.Abs(dir), base, newSettingsMemo())
	if err != nil {
		return nil, err
	}
	return preparePack(ctx, env, dir, settings, gate, keys)
}

// buildLintOpts are the lint options of a build's gate before any
// configuration applies: the spec tree --spec names.
func buildLintOpts(env *cli.Env, keys *keyFlags) (lint.Options, error) {
	tree, err := keys.tree()
	if err != nil {
		return lint.Options{}, err
	}
	opt := lintOpts(env, false)
	opt.Spec = tree
	return opt, nil
}

// gateGuard is publish --no-lint: lint stands between the pack and the
// registry with publish.GuardRules only, which no flag switches off.
// (lintGateMode's other values are in lintgate.go.)
const gateGuard = gatePublish + 1

// gateOptions are the lint options of gate for a pack configured as opt.
func gateOptions(gate lintGateMode, opt lint.Options) lint.Options {
	if gate == gateGuard {
		return publish.GuardOptions(opt)
	}
	return gate.options(opt)
}

// keepBudget is how many bytes of a pack's files a build keeps after lint
// reads them, for the secret check and the archive (pack.Pack.Keep): real
// packs fit whole (the largest of 89 real ones is 0.5 MB), and a pack at
// the 50 MB ceiling is streamed past it, so a build of one holds no more
// than it did; at most GOMAXPROCS packs are being built at once.
const keepBudget = 2 << 20

// preparePack is prepareBuild once the pack's settings are known. keys is
// modified (the configuration's key id): give each pack its own copy.
func preparePack(ctx context.Context, env *cli.Env, dir string, settings *packSettings, gate lintGateMode, keys *keyFlags) (*build.Plan, error) {
	pk, err := loadPackWith(env, dir, settings.limits)
	if err != nil {
		return nil, err
	}
	if pk.Archive != nil {
		return nil, cli.Usagef("%s is an archive; build takes a source directory ('wop pack sign' re-signs an archive)", dir)
	}
	pk.Keep(keepBudget)
	keys.configKeyID = settings.keyID
	if gate != gateOff {
		if err := lintGate(env, pk, gateOptions(gate, settings.opt), gate >= gatePublish); err != nil {
			return nil, err
		}
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
	if err := keys.refuseSigstoreV2(src); err != nil {
		return nil, err
	}
	s, err := keys.signing(ctx, env, src.Name)
	if err != nil {
		return nil, err
	}
	return src.Plan(s)
}

// lintGate refuses to build (or, publishing, to publish) a pack with lint
// errors, printing them. Publish never suggests --no-lint: what it would
// skip is at most style, and following such a hint on a fresh pack would
// publish its placeholders under an immutable version.
func lintGate(env *cli.Env, pk *pack.Pack, opt lint.Options, publishing bool) error {
	ds, err := lint.RunCached(pk, opt)
	if err != nil {
		return err
	}
	var errs []diag.Diagnostic
	for _, d := range ds {
		if d.Severity == diag.Error {
			errs = append(errs, d)
		}
	}
	if len(errs) == 0 {
		return nil
	}
	if err := report.Print(env.ErrOut, "text", report.Input{Diags: errs, Color: env.Color}); err != nil {
		return err
	}
	noun, verb := "errors", "building"
	if len(errs) == 1 {
		noun = "error"
	}
	hint := "fix them, or pass --no-lint to build anyway"
	switch {
	case publishing:
		verb = "publishing"
		hint = "fix them: a published version is immutable (placeholders, secrets, links and unsafe paths stop a publish even with --no-lint)"
	case slices.ContainsFunc(errs, func(d diag.Diagnostic) bool { return publish.IsGuardRule(d.Rule) && d.Rule != "placeholder-left" }):
		hint = "fix them: secrets, links and unsafe paths are refused by build and publish themselves, with or without --no-lint"
	}
	return cli.WithHint(fmt.Errorf("lint found %d %s; not %s", len(errs), noun, verb), hint)
}

func loadPack(env *cli.Env, arg string) (*pack.Pack, error) {
	return loadPackWith(env, arg, tarball.DefaultLimits)
}

func loadPackWith(env *cli.Env, arg string, lim tarball.Limits) (*pack.Pack, error) {
	pk, err := pack.Load(env.Abs(arg), lim)
	if err != nil {
		return nil, cli.Usagef("%s: %v", arg, withoutPath(err))
	}
	pk.Display = pack.DisplayName(arg)
	return pk, nil
}

func printPlan(env *cli.Env, plan *build.Plan) error {
	sum, err := plan.Hash()
	if err != nil {
		return err
	}
	var total int64
	for _, e := range plan.Entries() {
		fmt.Fprintf(env.Out, "%10d  %s\n", e.Size, e.Name)
		total += e.Size
	}
	fmt.Fprintf(env.Out, "%d files, %d bytes: %s.tgz\n%s\n%s\n", len(plan.Files), total, plan.BaseName(), sum.SRI, sum.Hex)
	return nil
}

func printResult(env *cli.Env, res *build.Result) error {
	rel := env.Rel
	fmt.Fprintf(env.Out, "wrote %s\n", rel(res.Archive))
	for _, p := range []string{res.Signature, res.Bundle} {
		if p != "" {
			fmt.Fprintf(env.Out, "wrote %s\n", rel(p))
		}
	}
	fmt.Fprintf(env.Out, "wrote %s\nwrote %s\n%s\n%s\n", rel(res.Manifest), rel(res.Sidecar), res.Integrity.SRI, res.Integrity.Hex)
	return nil
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
