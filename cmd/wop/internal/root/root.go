// Package root assembles the wop command tree and runs it.
package root

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/wop-cli/wop/cmd/wop/internal/agfcmd"
	"github.com/wop-cli/wop/cmd/wop/internal/cachecmd"
	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/cmd/wop/internal/keycmd"
	"github.com/wop-cli/wop/cmd/wop/internal/logincmd"
	"github.com/wop-cli/wop/cmd/wop/internal/lspcmd"
	"github.com/wop-cli/wop/cmd/wop/internal/packcmd"
	"github.com/wop-cli/wop/internal/report"
	"github.com/wop-cli/wop/internal/spec"
)

// NewCmd returns the root command.
func NewCmd(env *cli.Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:           "wop",
		Short:         "The pack author's CLI for OpenWOP",
		Long:          "wop lints, builds, signs, verifies and publishes OpenWOP packs.",
		Version:       env.Version,
		SilenceUsage:  true,
		SilenceErrors: true,
		// Unknown words reach GroupRunE, which suggests the nearest command
		// anywhere in the tree (`wop lint` -> `wop pack lint`).
		Args: cobra.ArbitraryArgs,
		RunE: cli.GroupRunE,
		// Every command path cobra prints (usage lines, 'see ... --help',
		// did-you-mean) starts with the command the user ran: "npx wop"
		// when npm's entry point started wop.
		Annotations: map[string]string{cobra.CommandDisplayNameAnnotation: env.Invoked.String()},
	}
	cmd.SetIn(env.In)
	cmd.SetOut(env.Out)
	cmd.SetErr(env.ErrOut)
	cmd.Flags().VarPF(&versionFlag{cmd: cmd}, "version", "v", "version for wop").NoOptDefVal = "true" // takes no value
	// Completion offers nothing after cobra's own --version; so after this one.
	_ = cmd.Flags().SetAnnotation("version", cobra.FlagSetByCobraAnnotation, []string{"true"})
	cmd.SetFlagErrorFunc(cli.FlagError)
	cmd.AddCommand(packcmd.NewCmd(env), agfcmd.NewCmd(env), keycmd.NewCmd(env), logincmd.NewCmd(env), logincmd.NewLogoutCmd(env), cli.NewExitCodesTopic())
	cmd.AddCommand(cachecmd.NewCmd(env), lspcmd.NewCmd(env))
	// Add cobra's completion group now (Execute would, later) so that it
	// too refuses unknown words with a did-you-mean, like every group.
	cmd.InitDefaultCompletionCmd()
	guardGroups(cmd)
	cli.GuardHelp(cmd)
	return cmd
}

// versionFlag is --version, cobra's own but for one thing: setting it gives
// the command its version template, whose spec sources are read from the
// embedded PROVENANCE.json, so that no other command pays for reading it.
type versionFlag struct {
	cmd *cobra.Command
	on  bool
}

func (f *versionFlag) Set(s string) error {
	on, err := strconv.ParseBool(s)
	if err != nil {
		return err
	}
	f.on = on
	if on {
		f.cmd.SetVersionTemplate(spec.VersionTemplate())
	}
	return nil
}

func (f *versionFlag) String() string { return strconv.FormatBool(f.on) }
func (f *versionFlag) Type() string   { return "bool" } // cobra reads it with GetBool

// guardGroups gives every command that only groups others GroupRunE: an
// unknown subcommand is a usage error with a suggestion, not help and exit 0.
func guardGroups(c *cobra.Command) {
	for _, sub := range c.Commands() {
		if sub.HasSubCommands() && !sub.Runnable() {
			sub.Args, sub.RunE = cobra.ArbitraryArgs, cli.GroupRunE
		}
		guardGroups(sub)
	}
}

// Main runs wop with args and returns the exit code. Errors are printed here
// and nowhere else.
func Main(ctx context.Context, args []string, env *cli.Env) int {
	cmd := NewCmd(env)
	cmd.SetArgs(args)
	err := execute(ctx, cmd)
	if errors.Is(context.Cause(ctx), cli.ErrInterrupted) {
		err = cli.ErrInterrupted // whatever the command made of its cancellation
	}
	if err != nil && !errors.Is(err, cli.ErrFindings) {
		if isCobraUsage(err) {
			err = &cli.UsageError{Err: err}
		}
		// Errors quote file and entry names: escape what could drive the
		// terminal.
		fmt.Fprintf(env.ErrOut, "wop: %s\n", report.EscapeControl(err.Error(), true))
		var h cli.Hinter
		if errors.As(err, &h) && h.Hint() != "" {
			fmt.Fprintf(env.ErrOut, "hint: %s\n", report.EscapeControl(h.Hint(), true))
		}
	}
	return cli.ExitCode(err)
}

// execute runs the command, turning a panic into an *cli.InternalError
// with the stack, for the bug report.
func execute(ctx context.Context, cmd *cobra.Command) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &cli.InternalError{Err: fmt.Errorf("panic: %v\n%s", r, debug.Stack())}
		}
	}()
	return cmd.ExecuteContext(ctx)
}

// isCobraUsage recognises cobra's own argument errors, which it returns as
// plain errors.
func isCobraUsage(err error) bool {
	msg := err.Error()
	return strings.HasPrefix(msg, "unknown command") || strings.Contains(msg, "arg(s)") || strings.HasPrefix(msg, "accepts ") ||
		strings.Contains(msg, "flags in the group") // MarkFlagsMutuallyExclusive and friends
}
