// Package packcmd implements `wop pack ...`: one file per verb. Commands
// parse flags into an options struct and call the internal packages.
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
	cmd.AddCommand(newLintCmd(env, nil), newRulesCmd(env), newBuildCmd(env), newSignCmd(env), newVerifyCmd(env), newInitCmd(env), newPublishCmd(env), newBreakingCmd(env, nil), newBumpCmd(env, nil))
	return cmd
}
