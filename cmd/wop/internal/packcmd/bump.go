package packcmd

import (
	"context"

	"github.com/spf13/cobra"
	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/bump"
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
	return bump.Run(ctx, bump.Request{Lint: o.env.Lint(), Out: o.env.Out, Step: o.step, Path: o.path, Against: o.against,
		Config: o.config, DryRun: o.dryRun, Previous: previous(o.env)})
}
