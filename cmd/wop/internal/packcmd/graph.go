package packcmd

import (
	"context"

	"github.com/spf13/cobra"
	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/chaindraw"
	"github.com/wop-cli/wop/internal/graphrun"
	"github.com/wop-cli/wop/internal/lintrun"
	"github.com/wop-cli/wop/internal/spec"
	"github.com/wop-cli/wop/internal/suggest"
)

type graphOptions struct {
	env    *cli.Env
	run    graphrun.Options
	tree   string
	output string
}

func newGraphCmd(env *cli.Env, runF func(context.Context, *graphOptions) error) *cobra.Command {
	o := &graphOptions{env: env}
	cmd := &cobra.Command{
		Use:   "graph [PATH...]",
		Short: "Draw workflow chains: nodes, edges, where each input comes from, findings",
		Long:  cli.LongHelp(helpFiles, "graph"),
		Example: `  wop pack graph
  wop pack graph --chain my.chain --format mermaid
  wop pack graph --format svg -o chain.svg
  wop pack graph --against git:main --format mermaid`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.run.Paths = args
			if len(args) == 0 {
				o.run.Paths = []string{"."}
			}
			if err := suggest.FlagValue("--format", o.run.Format, chaindraw.Formats...); err != nil {
				return err
			}
			tree, err := spec.ParseTree(o.tree)
			if err != nil {
				return cli.Usagef("%v", err)
			}
			o.run.Spec = tree
			if runF != nil {
				return runF(cmd.Context(), o)
			}
			return runGraph(cmd.Context(), o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.run.Chain, "chain", "", "draw only the chain with this chainId")
	f.StringVar(&o.run.Format, "format", "text", "output format: text, mermaid, dot, svg or json")
	cli.CompleteValues(cmd, "format", cli.Fixed(chaindraw.Formats...))
	f.StringVarP(&o.output, "output", "o", "", "write the drawing to this file (atomically; default: standard output)")
	f.StringVar(&o.run.Against, "against", "", "mark what changed since a previous release (a .tgz, a directory, git:REF, NAME@VERSION or registry)")
	f.StringVar(&o.run.Config, "config", "", "configuration file (default: .wop.yaml found upward from each pack)")
	f.StringArrayVar(&o.run.Catalogs, "catalog", nil, "what other packs define (as lint takes it): node roles and schemas")
	f.StringVar(&o.run.Host, "host", "", "host profile file (as lint takes it)")
	f.BoolVar(&o.run.Offline, "offline", false, "read a URL catalog from the cache only")
	f.StringVar(&o.tree, "spec", "auto", "spec tree to judge packs by: auto, v1 or v2")
	return cmd
}

func runGraph(ctx context.Context, o *graphOptions) error {
	env := o.env.Lint()
	if err := lintrun.CheckOutput(env, "--output", o.output, "chain.svg"); err != nil {
		return err
	}
	o.run.Color = o.env.Color && o.output == ""
	o.run.Previous = previous(o.env)
	out, err := graphrun.Run(ctx, env, o.run)
	if err != nil {
		return err
	}
	if o.output != "" {
		return lintrun.WriteOutput(o.env.Abs(o.output), "--output", out)
	}
	_, err = o.env.Out.Write(out)
	return err
}
