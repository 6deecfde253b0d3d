package packcmd

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/spf13/cobra"
	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/breaking"
	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/lintrun"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/release"
	"github.com/wop-cli/wop/internal/report"
	"github.com/wop-cli/wop/internal/suggest"
	"github.com/wop-cli/wop/internal/tarball"
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
	abs := o.env.Abs(o.path)
	newPk, err := pack.Load(abs, tarball.DefaultLimits)
	if err != nil {
		return cli.Usagef("%s: %v", o.path, lintrun.WithoutPath(err))
	}
	newPk.Display = pack.DisplayName(o.path)
	cfg, err := lintrun.PackConfig(o.env.Lint(), o.config, release.PackDir(abs))
	if err != nil {
		return err
	}
	oldPk, cleanup, err := previousRelease(ctx, o.env, o.against, abs, tarball.DefaultLimits)
	defer cleanup()
	if errors.Is(err, errNoPrevious) {
		fmt.Fprintf(o.env.ErrOut, "no previous release at %s: nothing to compare\n", o.against)
		return report.Print(o.env.Out, o.format, report.Input{Tool: "wop", Version: o.env.Version, Rules: breaking.Infos()})
	}
	if err != nil {
		return err
	}
	opt := breaking.Options{Accept: acceptList(cfg)}
	catalogs := lintrun.NewCatalogs(false, false)
	if o.catalog != "" {
		cat, err := catalogs.Load(ctx, o.env.Lint(), lintrun.CatalogSrc(o.env.Lint(), o.catalog), "--catalog")
		if err != nil {
			return err
		}
		opt.Provides = cat.HasType
	}
	res, err := breaking.Compare(oldPk, newPk, opt)
	if err != nil {
		return cli.Usagef("%v", err)
	}
	diags := res.Diagnostics()
	if !o.info {
		diags = slices.DeleteFunc(diags, func(d diag.Diagnostic) bool { return d.Severity == diag.Info })
	}
	in := report.Input{Tool: "wop", Version: o.env.Version, Rules: breaking.Infos(), Diags: diag.Sort(diags), Color: o.env.Color,
		Incomplete: catalogs.Incomplete()}
	if err := report.Print(o.env.Out, o.format, in); err != nil {
		return err
	}
	counts := diag.Count(diags)
	verdict := slices.ContainsFunc(diags, func(d diag.Diagnostic) bool {
		return d.Rule == breaking.RuleBumpInsufficient || d.Rule == breaking.RuleVersionMutated
	})
	if o.format == "text" {
		res.WriteVerdict(o.env.ErrOut, in.Incomplete)
	}
	if verdict || o.strict && counts.Errors+counts.Warnings > 0 {
		return cli.ErrFindings
	}
	return nil
}
