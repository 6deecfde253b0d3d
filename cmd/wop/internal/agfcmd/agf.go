// Package agfcmd implements `wop agf lint|import`: AgentFormat definitions.
package agfcmd

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/agf"
	"github.com/wop-cli/wop/internal/agfimport"
	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/lint"
	"github.com/wop-cli/wop/internal/report"
	"github.com/wop-cli/wop/internal/schema"
	"github.com/wop-cli/wop/internal/suggest"
)

// NewCmd returns the `wop agf` group.
func NewCmd(env *cli.Env) *cobra.Command {
	cmd := &cobra.Command{Use: "agf", Short: "Lint AgentFormat (*.agf.yaml) agents and import them into packs", Args: cobra.ArbitraryArgs, RunE: cli.GroupRunE}
	cmd.AddCommand(newLintCmd(env), newImportCmd(env))
	return cmd
}

func newLintCmd(env *cli.Env) *cobra.Command {
	var format string
	var strict bool
	cmd := &cobra.Command{
		Use:   "lint FILE...",
		Short: "Check AgentFormat files against the schema and the agf-* rules",
		Long:  cli.LongHelp(helpFiles, "lint"),
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := suggest.FlagValue("--format", format, report.Formats...); err != nil {
				return err
			}
			var names []string
			for _, a := range args {
				if _, err := os.Stat(env.Abs(a)); err != nil {
					return cli.Usagef("%s: no such file", a)
				}
				names = append(names, filepath.ToSlash(filepath.Clean(a)))
			}
			ds, err := lint.AgentFormat(names, agfimport.DiskSource(env.Abs), lint.AgentFormatOptions{Strict: strict})
			if err != nil {
				return cli.Usagef("%v", err)
			}
			return printAndExit(env, format, strict, ds, len(names))
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "output format: text, json, sarif or github")
	cli.CompleteValues(cmd, "format", cli.Fixed(report.Formats...))
	cmd.Flags().BoolVar(&strict, "strict", false, "unknown fields are errors and warnings fail")
	return cmd
}

func printAndExit(env *cli.Env, format string, strict bool, ds []diag.Diagnostic, files int) error {
	rules := lint.Infos()
	if format == "sarif" {
		rules = lint.InfosWithDocs()
	}
	if err := report.Print(env.Out, format, report.Input{Tool: "wop", Version: env.Version, Rules: rules, Diags: ds, Color: env.Color, BaseDir: env.WorkDir, Invoked: env.Invoked}); err != nil {
		return err
	}
	c := diag.Count(ds)
	if format == "text" {
		fmt.Fprintln(env.ErrOut, report.Summary(ds, report.Tally{}, files, "file"))
	}
	if c.Errors > 0 || strict && c.Warnings > 0 {
		return cli.ErrFindings
	}
	return nil
}

func newImportCmd(env *cli.Env) *cobra.Command {
	o := agf.ImportOptions{Tools: map[string]string{}}
	var packDir string
	var tools []string
	cmd := &cobra.Command{
		Use:     "import FILE --pack DIR",
		Short:   "Add an AgentFormat agent to a pack's agents[]",
		Long:    cli.LongHelp(helpFiles, "import"),
		Example: `  wop agf import triage.agf.yaml --pack packs/community.acme.support --tool lookup=openwop:community.acme.crm.lookup`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if packDir == "" {
				return cli.Usagef("--pack DIR is required")
			}
			if err := agfimport.CheckModelClass(o.ModelClass); err != nil {
				return err
			}
			for _, t := range tools {
				alias, to, ok := strings.Cut(t, "=")
				if !ok || alias == "" || to == "" {
					return cli.Usagef("--tool %q: write alias=openwop:<typeId>", t)
				}
				o.Tools[alias] = to
			}
			return runImport(env, args[0], packDir, o)
		},
	}
	cmd.Flags().StringVar(&packDir, "pack", "", "the pack directory to add the agent to")
	cmd.Flags().StringVar(&o.AgentID, "agent-id", "", "agent id segment (default: metadata.id)")
	cmd.Flags().StringVar(&o.ModelClass, "model-class", "", "OpenWOP modelClass: reasoning, writing, coding, research, classification, general (default general; a re-import keeps the agent's)")
	cli.CompleteValues(cmd, "model-class", modelClasses)
	cmd.Flags().StringArrayVar(&tools, "tool", nil, "map a local tool: alias=openwop:<typeId> (repeatable)")
	cmd.Flags().BoolVar(&o.AcceptLoss, "accept-loss", false, "import even when approvals or unmapped tools cannot be carried over")
	return cmd
}

func runImport(env *cli.Env, file, packDir string, o agf.ImportOptions) error {
	res, err := agfimport.Import(agfimport.Request{File: file, PackDir: packDir, Abs: env.Abs, Source: agfimport.DiskSource(env.Abs), Import: o})
	var input *agfimport.InputError
	var lintErr *agfimport.LintError
	switch {
	case errors.As(err, &input):
		return &cli.UsageError{Err: err}
	case errors.As(err, &lintErr):
		report.Print(env.ErrOut, "text", report.Input{Diags: lintErr.Diags})
		return err
	}
	if res != nil && len(res.Losses) > 0 {
		report.Print(env.ErrOut, "text", report.Input{Diags: res.Losses})
	}
	if errors.Is(err, agf.ErrApprovalLoss) {
		return cli.WithHint(err, "pass --accept-loss to import without them, and enforce approvals in the host")
	}
	if err != nil {
		return err
	}
	if res.Imported.Updated {
		fmt.Fprintf(env.Out, "re-imported %s into %s: updated %s in place\n", file, packDir, res.Imported.AgentID)
	} else {
		fmt.Fprintf(env.Out, "imported %s into %s as %s\n", file, packDir, res.Imported.AgentID)
	}
	ds, err := agfimport.LintPack(env.Abs(packDir), packDir)
	if err != nil {
		return err
	}
	if len(ds) == 0 {
		fmt.Fprintf(env.ErrOut, "%s lints clean\n", packDir)
		return nil
	}
	report.Print(env.ErrOut, "text", report.Input{Diags: ds})
	if diag.Count(ds).Errors > 0 {
		return cli.ErrFindings
	}
	return nil
}

// modelClasses are the values the agent manifest schema allows, for
// completion (none if the embedded schema cannot be read: a bug in wop).
func modelClasses() []string {
	classes, _ := schema.ModelClasses()
	return classes
}
