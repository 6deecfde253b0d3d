// Package packcmd implements `wop pack ...`: one file per verb. Commands
// parse flags into an options struct and call the internal packages. Each
// constructor takes a runF that, when set, receives the parsed and
// validated options instead of running the command: tests check flag
// combinations through it without touching disk or network.
package packcmd

import (
	"github.com/spf13/cobra"
	"github.com/wop-cli/wop/cmd/wop/internal/cli"
)

// NewCmd returns the `wop pack` group.
func NewCmd(env *cli.Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "pack",
		Short: "Lint, build, sign, verify and publish packs",
		Args:  cobra.ArbitraryArgs,
		RunE:  cli.GroupRunE,
	}
	cmd.AddCommand(newLintCmd(env, nil), newRulesCmd(env), newBuildCmd(env, nil), newSignCmd(env, nil), newVerifyCmd(env, nil), newInitCmd(env), newPublishCmd(env, nil), newBreakingCmd(env, nil), newBumpCmd(env, nil), newCatalogCmd(env), newMigrateCmd(env), newGraphCmd(env))
	return cmd
}
