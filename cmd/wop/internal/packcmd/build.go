package packcmd

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"
	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/atomicfile"
	"github.com/wop-cli/wop/internal/build"
	"github.com/wop-cli/wop/internal/lintrun"
	"github.com/wop-cli/wop/internal/pack"
)

type buildOptions struct {
	env    *cli.Env
	outDir string
	noLint bool
	quiet  bool
	list   bool
	keys   keyFlags
	dirs   []string
}

func newBuildCmd(env *cli.Env, runF func(context.Context, *buildOptions) error) *cobra.Command {
	o := &buildOptions{env: env}
	cmd := &cobra.Command{
		Use:   "build [DIR...]",
		Short: "Build <name>-<version>.tgz, byte for byte as the registry expects",
		Long:  cli.LongHelp(helpFiles, "build"),
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
	cmd.Flags().BoolVarP(&o.quiet, "quiet", "q", false, "leave lint's warnings unprinted (errors still are)")
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
		plan, err := prepareBuild(ctx, o.env, o.dirs[0], lintrun.GateFor(o.noLint, false), o.quiet, &o.keys)
		if err != nil {
			return err
		}
		return emit(ctx, o.env, o, plan)
	}
	return buildMany(ctx, manyOptions{env: o.env, dirs: o.dirs, outDir: o.outDir, list: o.list, gate: lintrun.GateFor(o.noLint, false), quiet: o.quiet, keys: o.keys})
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
		return plan.WriteList(env.Out)
	}
	res, err := plan.Write(ctx, env.Abs(o.outDir))
	if err != nil {
		return err
	}
	res.WriteText(env.Out, env.Rel)
	return nil
}
