package packcmd

import (
	"github.com/spf13/cobra"
	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/chaindraw"
	"github.com/wop-cli/wop/internal/graphrun"
)

func newGraphCmd(env *cli.Env) *cobra.Command {
	var o graphrun.Options
	cmd := &cobra.Command{Use: "graph [PATH...]", Short: "Draw workflow chains: nodes, edges, where each input comes from, findings",
		Long: cli.LongHelp(helpFiles, "graph"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Paths, o.Color, o.Previous = args, env.Color, previous(env)
			if !cmd.Flags().Changed("format") {
				o.Format = "" // from -o's extension
			}
			out, err := graphrun.Run(cmd.Context(), env.Lint(), o)
			if err == nil && len(out) > 0 {
				_, err = env.Out.Write(out)
			}
			return err
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Chain, "chain", "", "draw only the chain with this chainId")
	f.StringVar(&o.Format, "format", "", "output format: text, mermaid, dot, svg or json (default: from -o's extension, else text)")
	cli.CompleteValues(cmd, "format", cli.Fixed(chaindraw.Formats...))
	f.StringVarP(&o.Output, "output", "o", "", "write the drawing to this file (atomically; default: standard output)")
	f.StringVar(&o.Against, "against", "", "mark what changed since a previous release (a .tgz, a directory, git:REF, NAME@VERSION or registry)")
	f.StringVar(&o.Config, "config", "", "configuration file (default: .wop.yaml found upward from each pack)")
	f.StringArrayVar(&o.Catalogs, "catalog", nil, "what other packs define (as lint takes it): node roles and schemas")
	f.StringVar(&o.Host, "host", "", "host profile file or shipped host name (as lint takes it)")
	f.BoolVar(&o.Offline, "offline", false, "read a URL catalog from the cache only")
	f.StringVar(&o.Tree, "spec", "auto", "spec tree to judge packs by: auto, v1 or v2")
	return cmd
}
