package packcmd

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/scaffold"
	"github.com/wop-cli/wop/internal/spec"
)

func newInitCmd(env *cli.Env) *cobra.Command {
	var name, specFlag string
	var node, agent bool
	cmd := &cobra.Command{
		Use:   "init [NAME | DIR --name NAME] [--agent|--node]",
		Short: "Create a new pack: fill in its TODO: placeholders, then lint and publish",
		Long:  cli.LongHelp(helpFiles, "init"),
		Example: `  wop pack init community.alice.summaries
  wop pack init tools --name vendor.acme.tools --node
  wop pack init --name community.alice.summaries --spec v2`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			name, dir, err := scaffold.NameAndDir(strings.Join(args, ""), name, env.Invoked)
			if err != nil {
				return cli.Usagef("%v", err)
			}
			kind := scaffold.Agent
			if node {
				kind = scaffold.Node
			}
			tree := spec.Tree(specFlag)
			if tree != spec.V1 && tree != spec.V2 {
				return cli.Usagef("--spec %q: want v1 or v2", specFlag)
			}
			files, err := scaffold.Create(scaffold.Options{Dir: env.Abs(dir), Name: name, Kind: kind, Spec: tree})
			if err != nil {
				return cli.Usagef("%v", err)
			}
			slices.Sort(files)
			for _, f := range files {
				fmt.Fprintf(env.Out, "created %s\n", filepath.Join(dir, f))
			}
			fmt.Fprintf(env.ErrOut, "next: replace every TODO: (lint warns about each; publish refuses them), then run '%s'\n", env.Invoked.Cmd("pack lint "+dir))
			return nil
		},
	}
	cmd.Flags().StringVar(&name, "name", "", "pack name: community.<you>.<pack>, vendor.<org>.<pack> or private.<host>.<pack>")
	cmd.Flags().BoolVar(&agent, "agent", false, "an agent pack (the default)")
	cmd.Flags().BoolVar(&node, "node", false, "a node pack with a JavaScript executor")
	cmd.Flags().StringVar(&specFlag, "spec", "v1", "spec tree to write for: v1, or v2 (engines.openwop admits protocol 2, so build signs for the v2 registry tree)")
	cmd.MarkFlagsMutuallyExclusive("agent", "node")
	return cmd
}
