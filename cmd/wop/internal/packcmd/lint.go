package packcmd

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"
	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/breaking"
	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/graphrun"
	"github.com/wop-cli/wop/internal/lint"
	"github.com/wop-cli/wop/internal/lintrun"
	"github.com/wop-cli/wop/internal/releasecheck"
	"github.com/wop-cli/wop/internal/report"
	"github.com/wop-cli/wop/internal/spec"
	"github.com/wop-cli/wop/internal/suggest"
)

type lintOptions struct {
	env           *cli.Env
	format        string
	strict        bool
	explain       string
	noCache       bool
	info          bool
	config        string
	catalogs      []string
	host          string
	profile       string
	offline       bool
	baseline      string
	writeBaseline string
	output        string
	changed       bool
	staged        bool
	fix, diff     bool
	against       string
	spec          string
	paths         []string
}

func newLintCmd(env *cli.Env, runF func(context.Context, *lintOptions) error) *cobra.Command {
	o := &lintOptions{env: env}
	cmd := &cobra.Command{
		Use:   "lint [PATH...]",
		Short: "Check packs for the mistakes real published packs have shipped",
		Long:  cli.LongHelp(helpFiles, "lint"),
		Example: `  wop pack lint
  wop pack lint examples/*
  wop pack lint --format sarif . > wop.sarif
  wop pack lint --explain ref-missing`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.paths, o.changed = args, o.changed || o.staged
			if len(o.paths) == 0 && !o.changed {
				o.paths = []string{"."}
			}
			if err := suggest.FlagValue("--format", o.format, report.Formats...); err != nil {
				return err
			}
			if _, err := spec.ParseTree(o.spec); err != nil {
				return cli.Usagef("%v", err)
			}
			if _, err := lint.FindRuleProfile(o.profile); err != nil {
				return cli.Usagef("--profile: %v", err)
			}
			if runF != nil {
				return runF(cmd.Context(), o)
			}
			if o.explain != "" {
				return runExplain(o.env, o.explain)
			}
			return runLint(cmd.Context(), o)
		},
	}
	cmd.Flags().StringVar(&o.format, "format", "text", "output format: text, json, sarif or github")
	cmd.Flags().BoolVar(&o.strict, "strict", false, "fail on warnings too")
	cmd.Flags().StringVar(&o.explain, "explain", "", "explain a rule: why it exists, a bad and a fixed example")
	cmd.Flags().BoolVar(&o.info, "info", false, "also show info-level findings (off unless asked)")
	cmd.Flags().StringVar(&o.config, "config", "", "configuration file (default: .wop.yaml found upward from each pack)")
	cmd.Flags().StringArrayVar(&o.catalogs, "catalog", nil, "what other packs define: a registry URL, a registry checkout, a folder of packs or an index file (repeat for several)")
	cmd.Flags().StringVar(&o.host, "host", "", "host profile file, or a shipped host's name (openwop-app): the node types, agents and surfaces the host the packs target provides (see docs/hosts.md)")
	cmd.Flags().StringVar(&o.profile, "profile", "", "rule profile: registry (what breaks a pack for its users is an error); default: .wop.yaml profile:, else the rules' defaults")
	cli.CompleteValues(cmd, "profile", cli.Fixed(lint.RuleProfileNames()...))
	cmd.Flags().BoolVar(&o.offline, "offline", false, "read a URL catalog from the cache only")
	cmd.Flags().StringVar(&o.baseline, "baseline", "", "accept the findings listed in this file; only new ones count")
	cmd.Flags().StringVar(&o.writeBaseline, "write-baseline", "", "write the current findings to this file as a baseline and exit 0")
	cmd.Flags().BoolVar(&o.changed, "changed", false, "the arguments are changed files (as pre-commit passes them): lint the pack holding each, once; skip files in no pack")
	cmd.Flags().BoolVar(&o.staged, "staged-deletions", false, "--changed, and also the packs of files the git index deletes or renames (pre-commit passes only files that exist); each pack as the commit has it, without files git does not track")
	cmd.Flags().StringVarP(&o.output, "output", "o", "", "write the report to this file (replaced only when lint ran; default: standard output)")
	cli.CompleteValues(cmd, "format", cli.Fixed(report.Formats...))
	cli.CompleteValues(cmd, "explain", ruleIDs)
	cmd.Flags().BoolVar(&o.fix, "fix", false, "apply the safe mechanical fixes rules declare ('wop pack rules' lists them), then lint what is left")
	cmd.Flags().BoolVar(&o.diff, "diff", false, "print the fixes --fix would make as a unified diff, write nothing, and report on stderr what the fixes leave (exit 1 while errors remain)")
	cmd.Flags().StringVar(&o.against, "against", "", "the previous release (a .tgz, a directory, git:REF, NAME@VERSION or registry): also report version-bump-insufficient and published-version-mutated")
	cmd.Flags().StringVar(&o.spec, "spec", "auto", "spec tree to judge packs by: auto (v2 when engines.openwop admits protocol 2, as the registry decides), v1 or v2")
	cmd.Flags().BoolVar(&o.noCache, "no-cache", false, "lint every pack even if unchanged since the last run (WOP_CACHE_DIR=off does the same)")
	return cmd
}

func runLint(ctx context.Context, o *lintOptions) error {
	if err := lintrun.CheckOutput(o.env.Lint(), "--output", o.output, "wop.sarif"); err != nil {
		return err
	}
	if err := lintrun.CheckOutput(o.env.Lint(), "--write-baseline", o.writeBaseline, "wop-baseline.json"); err != nil {
		return err
	}
	res, err := lintrun.Run(ctx, o.env.Lint(), o.runOptions())
	if err != nil {
		return err
	}
	if o.diff { // stdout holds the patch alone; what the fixes leave goes to stderr
		if failed, err := lintrun.ReportAfterDiff(o.env.Lint(), res, o.ruleInfos(), o.strict); err != nil || !failed {
			return err
		}
		return cli.ErrFindings
	}
	failed, err := lintrun.Report(o.env.Lint(), res, lintrun.ReportOptions{Format: o.format, Output: o.output, WriteBaseline: o.writeBaseline,
		Rules: o.ruleInfos(), Color: o.env.Color, Strict: o.strict})
	if err != nil || o.writeBaseline != "" {
		return err
	}
	summary := graphrun.SummaryRequest{Format: o.format, Lint: o.runOptions(), Diags: res.Diags, Against: o.against, Previous: previous(o.env)}
	if err := graphrun.AppendSummary(ctx, o.env.Lint(), summary); err != nil {
		fmt.Fprintf(o.env.ErrOut, "wop: warning: the step summary's chain drawings: %v\n", err)
	}
	if failed {
		return cli.ErrFindings
	}
	return nil
}

// runOptions are the flags as lintrun takes them.
func (o *lintOptions) runOptions() lintrun.Options {
	r := lintrun.Options{Paths: o.paths, Changed: o.changed, StagedDeletions: o.staged, Config: o.config, Offline: o.offline, NoCache: o.noCache,
		Info: o.info, Baseline: o.baseline, Announce: o.format == "text", Specs: o.format == "json" || o.format == "sarif"}
	r.Spec, _ = spec.ParseTree(o.spec) // checked in RunE
	r.Catalogs, r.Host, r.Profile = o.catalogs, o.host, o.profile
	if o.writeBaseline != "" {
		r.Baseline = "" // the baseline written holds every finding
	}
	switch {
	case o.diff:
		r.Fix = lintrun.FixDiff
	case o.fix:
		r.Fix = lintrun.FixWrite
	}
	if o.against != "" {
		r.Against = releasecheck.Lint{Env: o.env.Lint(), Previous: previous(o.env), Against: o.against, Config: o.config}.Verdict
	}
	return r
}

// ruleInfos are the rules the report lists, with --profile's severities.
func (o *lintOptions) ruleInfos() []diag.RuleInfo {
	profile, _ := lint.FindRuleProfile(o.profile) // checked in RunE
	rules := lint.InfosFor(profile)
	if o.format == "sarif" {
		rules = lint.InfosWithDocsFor(profile)
	}
	if o.against != "" {
		rules = append(rules, breaking.ReleaseRules()...)
	}
	return rules
}
