package packcmd

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/spf13/cobra"
	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/atomicfile"
	"github.com/wop-cli/wop/internal/build"
	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/lint"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/publish"
	"github.com/wop-cli/wop/internal/report"
	"github.com/wop-cli/wop/internal/tarball"
)

type buildOptions struct {
	env    *cli.Env
	outDir string
	noLint bool
	list   bool
	keys   keyFlags
	dirs   []string
}

func newBuildCmd(env *cli.Env, runF func(context.Context, *buildOptions) error) *cobra.Command {
	o := &buildOptions{env: env}
	cmd := &cobra.Command{
		Use:   "build [DIR...]",
		Short: "Build <name>-<version>.tgz, byte for byte as the registry expects",
		Long: `Build each pack directory into <name>-<version>.tgz (with .sig, .json and
.integrity beside it). The archive holds the registry builder's file set plus
every file a manifest ref names, with a canonical pack.json, sorted USTAR
entries, zero owners and times: the same source always gives the same tar.

The pack is linted first; errors stop the build (--no-lint skips this).`,
		Example: `  wop pack build --key ~/keys/team.pem --key-id openwop-team-1 -o dist
  wop pack build --list
  wop pack build --signature 1.0.0.sig --key-id openwop-team-1   # rebuild a published version`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.dirs = args
			if len(o.dirs) == 0 {
				o.dirs = []string{"."}
			}
			if err := o.keys.validate(); err != nil {
				return err
			}
			if runF != nil {
				return runF(cmd.Context(), o)
			}
			return runBuild(cmd.Context(), o)
		},
	}
	cmd.Flags().StringVarP(&o.outDir, "output", "o", ".", "directory for the archive and its sidecar files")
	cmd.Flags().BoolVar(&o.noLint, "no-lint", false, "build even if lint finds errors")
	cmd.Flags().BoolVar(&o.list, "list", false, "print the entries, sizes and integrity; write nothing")
	cmd.Flags().BoolVar(&o.list, "dry-run", false, "same as --list")
	o.keys.addFlags(cmd)
	return cmd
}

func runBuild(ctx context.Context, o *buildOptions) error {
	if err := o.keys.preload(o.env); err != nil {
		return err
	}
	if o.list && o.keys.noSigner() {
		// --list writes nothing, so it needs no key: it lists the archive
		// without a signature, and says so.
		o.keys.unsigned = true
		fmt.Fprintln(o.env.ErrOut, "note: no key given: listing the unsigned archive (a signed one adds keys/pack.json.sig and signs pack.json, so its integrity differs)")
	}
	if !o.list {
		// A killed build may have left its temporary files there.
		atomicfile.RemoveStaleTemps(o.env.Abs(o.outDir), o.env.Time())
	}
	o.dirs = expandBuildDirs(o.env, o.dirs)
	if len(o.dirs) == 1 {
		plan, err := prepareBuild(ctx, o.env, o.dirs[0], gateFor(o.noLint, false), &o.keys)
		if err != nil {
			return err
		}
		return emit(ctx, o.env, o, plan)
	}
	return buildMany(ctx, o)
}

// expandBuildDirs reads each argument as lint does (pack.Discover): a
// folder without a pack.json is a folder of packs, each subfolder holding
// one built. An argument that names no pack stays as it is, for the build
// to say what is wrong with it.
func expandBuildDirs(env *cli.Env, args []string) []string {
	var dirs []string
	for _, arg := range args {
		found, err := pack.Discover(env.Abs(arg))
		if err != nil {
			dirs = append(dirs, arg)
			continue
		}
		for _, f := range found {
			rel, _ := filepath.Rel(env.Abs(arg), f)
			dirs = append(dirs, filepath.Join(arg, rel))
		}
	}
	return dirs
}

// emit lists the plan (--list) or writes it into the output folder, and
// says what it did.
func emit(ctx context.Context, env *cli.Env, o *buildOptions, plan *build.Plan) error {
	if o.list {
		return printPlan(env, plan)
	}
	res, err := plan.Write(ctx, env.Abs(o.outDir))
	if err != nil {
		return err
	}
	return printResult(env, res)
}

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
		if err := lintGate(env, pk, gate.options(settings.opt), gate == gatePublish); err != nil {
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
	if err := refuseSigstoreV2(src, keys); err != nil {
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
