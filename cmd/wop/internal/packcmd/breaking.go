package packcmd

import (
	"context"

	"github.com/spf13/cobra"
	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/releasecheck"
	"github.com/wop-cli/wop/internal/report"
	"github.com/wop-cli/wop/internal/suggest"
)

type breakingOptions struct {
	env     *cli.Env
	format  string
	strict  bool
	info    bool
	config  string
	against string
	catalog string
	path    string
}

func newBreakingCmd(env *cli.Env, runF func(context.Context, *breakingOptions) error) *cobra.Command {
	o := &breakingOptions{env: env}
	cmd := &cobra.Command{
		Use:   "breaking [PATH] --against REF",
		Short: "Report what changed since the previous release and whether the version says so",
		Long:  cli.LongHelp(helpFiles, "breaking"),
		Example: `  wop pack breaking --against ../dist/acme.tools-1.2.0.tgz
  wop pack breaking --against git:v1.2.0 --format json`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.path = "."
			if len(args) == 1 {
				o.path = args[0]
			}
			if o.against == "" {
				return cli.Usagef("--against is required: the previous release as a .tgz, a directory, git:REF, NAME@VERSION or registry")
			}
			if err := suggest.FlagValue("--format", o.format, report.Formats...); err != nil {
				return err
			}
			if runF != nil {
				return runF(cmd.Context(), o)
			}
			return runBreaking(cmd.Context(), o)
		},
	}
	cmd.Flags().StringVar(&o.against, "against", "", "the previous release: a .tgz, a directory, git:REF, NAME@VERSION or registry ($WOP_REGISTRY)")
	cmd.Flags().StringVar(&o.catalog, "catalog", "", "folder of packs or registry index file: node types it defines count as provided to chains")
	cmd.Flags().StringVar(&o.format, "format", "text", "output format: text, json, sarif or github")
	cmd.Flags().BoolVar(&o.strict, "strict", false, "fail on any error or warning, even when the version covers it")
	cmd.Flags().BoolVar(&o.info, "info", false, "also show info-level changes")
	cmd.Flags().StringVar(&o.config, "config", "", "configuration file (default: .wop.yaml found upward from the pack)")
	cli.CompleteValues(cmd, "format", cli.Fixed(report.Formats...))
	return cmd
}

func runBreaking(ctx context.Context, o *breakingOptions) error {
	failed, err := releasecheck.Run(ctx, releasecheck.Request{Lint: o.env.Lint(), Color: o.env.Color, Path: o.path, Against: o.against,
		Catalog: o.catalog, Config: o.config, Format: o.format, Strict: o.strict, Info: o.info, Previous: previous(o.env)})
	if err == nil && failed {
		return cli.ErrFindings
	}
	return err
}
