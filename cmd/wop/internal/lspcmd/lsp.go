// Package lspcmd implements `wop lsp`: the language server (internal/lsp)
// on standard input and output.
package lspcmd

import (
	"io"

	"github.com/spf13/cobra"
	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/lsp"
)

// NewCmd returns `wop lsp`.
func NewCmd(env *cli.Env) *cobra.Command {
	opt := lsp.Options{}
	cmd := &cobra.Command{
		Use:   "lsp",
		Short: "Run the language server editors start (LSP over standard input and output)",
		Long:  cli.LongHelp(helpFiles, "lsp"),
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opt.Env = env.Lint()
			opt.Env.Out = io.Discard // standard output carries the protocol
			if err := lsp.Serve(cmd.Context(), stdio{env.In, env.Out}, opt); err != nil {
				return &cli.ExitError{Code: 1, Err: err}
			}
			return nil
		},
	}
	cmd.Flags().DurationVar(&opt.Debounce, "debounce", lsp.DefaultDebounce, "quiet time after a burst of changes (changes closer than this) before lint runs; a change after a quiet spell is linted at once")
	// Editors' generic clients pass --stdio; standard I/O is the only transport.
	cmd.Flags().Bool("stdio", true, "speak on standard input and output (the only transport; accepted for clients that pass it)")
	return cmd
}

// stdio is the process's standard input and output as one stream.
type stdio struct {
	in  io.Reader
	out io.Writer
}

func (s stdio) Read(p []byte) (int, error)  { return s.in.Read(p) }
func (s stdio) Write(p []byte) (int, error) { return s.out.Write(p) }
func (s stdio) Close() error                { return nil }
