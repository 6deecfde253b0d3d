package packcmd

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"
	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/breaking"
	"github.com/wop-cli/wop/internal/bump"
	"github.com/wop-cli/wop/internal/config"
	"github.com/wop-cli/wop/internal/lint"
	"github.com/wop-cli/wop/internal/lintrun"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/tarball"
)

type bumpOptions struct {
	env     *cli.Env
	step    string // major, minor, patch, auto or X.Y.Z
	against string
	config  string
	dryRun  bool
	path    string
}

func newBumpCmd(env *cli.Env, runF func(context.Context, *bumpOptions) error) *cobra.Command {
	o := &bumpOptions{env: env}
	cmd := &cobra.Command{
		Use:   "bump major|minor|patch|auto|X.Y.Z [PATH]",
		Short: "Set the pack's version and every place that embeds it",
		Long:  cli.LongHelp(helpFiles, "bump"),
		Example: `  wop pack bump minor
  wop pack bump auto --against git:v1.2.0
  wop pack bump 2.0.0 --dry-run`,
		Args: cobra.RangeArgs(1, 2),
		ValidArgsFunction: func(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
			if len(args) == 0 {
				return []string{"major", "minor", "patch", "auto"}, cobra.ShellCompDirectiveNoFileComp
			}
			return nil, cobra.ShellCompDirectiveFilterDirs // then PATH, a pack directory
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			o.step, o.path = args[0], "."
			if len(args) == 2 {
				o.path = args[1]
			}
			if o.step == "auto" && o.against == "" {
				return cli.Usagef("bump auto needs --against: the previous release to compare with")
			}
			if runF != nil {
				return runF(cmd.Context(), o)
			}
			return runBump(cmd.Context(), o)
		},
	}
	cmd.Flags().StringVar(&o.against, "against", "", "the previous release (a .tgz, a directory, git:REF, NAME@VERSION or registry): raise changed nodes' and chains' versions; needed by auto")
	cmd.Flags().StringVar(&o.config, "config", "", "configuration file (default: .wop.yaml found upward from the pack)")
	cmd.Flags().BoolVar(&o.dryRun, "dry-run", false, "print what would change and write nothing")
	return cmd
}

func runBump(ctx context.Context, o *bumpOptions) error {
	dir := o.env.Abs(o.path)
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return cli.Usagef("%s: bump edits a pack source directory, not an archive", o.path)
	}
	pk, err := pack.Load(dir, tarball.DefaultLimits)
	if err != nil {
		return cli.Usagef("%s: %v", o.path, lintrun.WithoutPath(err))
	}
	pk.Display = pack.DisplayName(o.path)
	cfg, err := lintrun.PackConfig(o.env.Lint(), o.config, dir)
	if err != nil {
		return err
	}
	current, err := pk.ManifestString("version")
	if err != nil {
		return cli.Usagef("%s: %v", o.path, err)
	}
	var res *breaking.Result
	if o.against != "" {
		if res, err = compareWith(ctx, o.env, o.against, dir, pk, cfg); err != nil {
			return err
		}
	}
	next, err := bump.Next(o.step, current, res)
	if err != nil {
		return cli.Usagef("%v", err)
	}
	opt := bump.Options{SchemaBase: cmp.Or(cfg.SchemaBase, lint.DefaultSchemaBase)}
	if res != nil {
		opt.Stale = res.Stale
	}
	edits, err := bump.Plan(pk, next, opt)
	if err != nil {
		return cli.Usagef("%s: %v", o.path, err)
	}
	for _, e := range edits {
		for _, n := range e.Notes {
			fmt.Fprintf(o.env.Out, "%s: %s\n", pk.Path(e.Name), n)
		}
	}
	if o.dryRun || len(edits) == 0 {
		return nil
	}
	return bump.Write(dir, edits)
}

// compareWith runs breaking against a previous release; a first release
// compares with nothing (auto then picks a patch step).
func compareWith(ctx context.Context, env *cli.Env, against, dir string, pk *pack.Pack, cfg *config.Config) (*breaking.Result, error) {
	oldPk, cleanup, err := previousRelease(ctx, env, against, dir, tarball.DefaultLimits)
	defer cleanup()
	if errors.Is(err, errNoPrevious) {
		cur, err := pk.ManifestString("version")
		return &breaking.Result{OldVersion: cur}, err
	}
	if err != nil {
		return nil, err
	}
	res, err := breaking.Compare(oldPk, pk, breaking.Options{Accept: acceptList(cfg)})
	if err != nil {
		return nil, cli.Usagef("%v", err)
	}
	return res, nil
}

func acceptList(c *config.Config) []breaking.Acceptance {
	var out []breaking.Acceptance
	for _, a := range c.Breaking.Accept {
		out = append(out, breaking.Acceptance{Rule: a.Rule, Where: a.Where})
	}
	return out
}
