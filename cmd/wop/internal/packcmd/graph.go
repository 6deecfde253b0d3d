package packcmd

import (
	"github.com/spf13/cobra"
	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/chaindraw"
	"github.com/wop-cli/wop/internal/graphrun"
	"github.com/wop-cli/wop/internal/lintrun"
	"github.com/wop-cli/wop/internal/spec"
	"github.com/wop-cli/wop/internal/suggest"
)

func newGraphCmd(env *cli.Env) *cobra.Command {
	var o graphrun.Options
	var tree, output string
	cmd := &cobra.Command{Use: "graph [PATH...]", Short: "Draw workflow chains: nodes, edges, where each input comes from, findings",
		Long: cli.LongHelp(helpFiles, "graph"),
		RunE: func(cmd *cobra.Command, args []string) (err error) {
			if o.Paths = args; len(args) == 0 {
				o.Paths = []string{"."}
			}
			if err := suggest.FlagValue("--format", o.Format, chaindraw.Formats...); err != nil {
				return err
			}
			if o.Spec, err = spec.ParseTree(tree); err != nil {
				return cli.Usagef("%v", err)
			}
			if err := lintrun.CheckOutput(env.Lint(), "--output", output, "chain.svg"); err != nil {
				return err
			}
			o.Color, o.Previous = env.Color && output == "", previous(env)
			out, err := graphrun.Run(cmd.Context(), env.Lint(), o)
			switch {
			case err != nil:
				return err
			case output != "":
				return lintrun.WriteOutput(env.Abs(output), "--output", out)
			}
			_, err = env.Out.Write(out)
			return err
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Chain, "chain", "", "draw only the chain with this chainId")
	f.StringVar(&o.Format, "format", "text", "output format: text, mermaid, dot, svg or json")
	cli.CompleteValues(cmd, "format", cli.Fixed(chaindraw.Formats...))
	f.StringVarP(&output, "output", "o", "", "write the drawing to this file (atomically; default: standard output)")
	f.StringVar(&o.Against, "against", "", "mark what changed since a previous release (a .tgz, a directory, git:REF, NAME@VERSION or registry)")
	f.StringVar(&o.Config, "config", "", "configuration file (default: .wop.yaml found upward from each pack)")
	f.StringArrayVar(&o.Catalogs, "catalog", nil, "what other packs define (as lint takes it): node roles and schemas")
	f.StringVar(&o.Host, "host", "", "host profile file (as lint takes it)")
	f.BoolVar(&o.Offline, "offline", false, "read a URL catalog from the cache only")
	f.StringVar(&tree, "spec", "auto", "spec tree to judge packs by: auto, v1 or v2")
	return cmd
}
