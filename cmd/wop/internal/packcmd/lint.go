package packcmd

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"github.com/wop-cli/wop/internal/catalog"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/spf13/cobra"
	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/atomicfile"
	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/lint"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/report"
	"github.com/wop-cli/wop/internal/spec"
	"github.com/wop-cli/wop/internal/tarball"
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
		Long: `Lint each pack: a directory with pack.json, a pack.json path, a built .tgz
(read in memory), or a folder of packs (every subdirectory with a pack.json).

Exit status: 0 no errors; 1 errors found (or warnings, with --strict);
2 bad usage or input that cannot be read.`,
		Example: `  wop pack lint
  wop pack lint examples/*
  wop pack lint --format sarif . > wop.sarif
  wop pack lint --explain ref-missing`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.paths = args
			if len(o.paths) == 0 && !o.changed {
				o.paths = []string{"."}
			}
			if !slices.Contains(report.Formats, o.format) {
				return cli.Usagef("--format %q: want one of text, json, sarif, github", o.format)
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
	cmd.Flags().StringVar(&o.host, "host", "", "host profile file: the node types, agents and surfaces the host the packs target provides (see docs/hosts.md)")
	cmd.Flags().StringVar(&o.profile, "profile", "", "rule profile: registry (what breaks a pack for its users is an error); default: .wop.yaml profile:, else the rules' defaults")
	cli.CompleteValues(cmd, "profile", cli.Fixed(lint.RuleProfileNames()...))
	cmd.Flags().BoolVar(&o.offline, "offline", false, "read a URL catalog from the cache only")
	cmd.Flags().StringVar(&o.baseline, "baseline", "", "accept the findings listed in this file; only new ones count")
	cmd.Flags().StringVar(&o.writeBaseline, "write-baseline", "", "write the current findings to this file as a baseline and exit 0")
	cmd.Flags().BoolVar(&o.changed, "changed", false, "the arguments are changed files (as pre-commit passes them): lint the pack holding each, once; skip files in no pack")
	cmd.Flags().StringVarP(&o.output, "output", "o", "", "write the report to this file (replaced only when lint ran; default: standard output)")
	cli.CompleteValues(cmd, "format", cli.Fixed(report.Formats...))
	cli.CompleteValues(cmd, "explain", ruleIDs)
	cmd.Flags().BoolVar(&o.fix, "fix", false, "apply the safe mechanical fixes rules declare ('wop pack rules' lists them), then lint what is left")
	cmd.Flags().BoolVar(&o.diff, "diff", false, "print the fixes --fix would make as a unified diff; write nothing")
	cmd.Flags().StringVar(&o.against, "against", "", "the previous release (a .tgz, a directory, git:REF, NAME@VERSION or registry): also report version-bump-insufficient and published-version-mutated")
	cmd.Flags().StringVar(&o.spec, "spec", "auto", "spec tree to judge packs by: auto (v2 when engines.openwop admits protocol 2, as the registry decides), v1 or v2")
	cmd.Flags().BoolVar(&o.noCache, "no-cache", false, "lint every pack even if unchanged since the last run (WOP_CACHE_DIR=off does the same)")
	return cmd
}

// target is one pack to lint: where it is and how findings name it.
type target struct{ path, display string }

func expandTargets(env *cli.Env, args []string) ([]target, error) {
	var out []target
	for _, arg := range args {
		abs := env.Abs(arg)
		found, err := pack.Discover(abs)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, cli.Usagef("%s: no such file or directory", arg)
			}
			return nil, cli.Usagef("%s: %v", arg, withoutPath(err))
		}
		for _, f := range found {
			rel, _ := filepath.Rel(abs, f)
			out = append(out, target{path: f, display: filepath.Join(arg, rel)})
		}
	}
	return out, nil
}

// withoutPath drops the absolute path an *fs.PathError carries; callers
// name the file as the user typed it.
func withoutPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	if errors.Is(err, pack.ErrNoManifest) {
		return errors.New("no pack.json here or in its subdirectories: point at a pack directory, a pack.json or a .tgz")
	}
	return err
}

func runLint(ctx context.Context, o *lintOptions) error {
	if err := checkOutput(o.env, "--output", o.output, "wop.sarif"); err != nil {
		return err
	}
	if err := checkOutput(o.env, "--write-baseline", o.writeBaseline, "wop-baseline.json"); err != nil {
		return err
	}
	targets, looseAGF, err := lintTargets(o)
	if err != nil {
		return err
	}
	base := lintOpts(o.env, o.noCache)
	catalogs := catalogLoader{ctx: ctx, env: o.env, offline: o.offline, announce: o.format == "text", open: map[string]*catalog.Catalog{}}
	base.Spec, _ = spec.ParseTree(o.spec) // checked in RunE
	if len(o.catalogs) > 0 {
		srcs := make([]string, len(o.catalogs))
		for i, src := range o.catalogs {
			srcs[i] = catalogSrc(o.env, src)
		}
		if base.Catalog, err = catalogs.loadAll(srcs, "--catalog"); err != nil {
			return err
		}
	}
	jobs, limits, err := lintJobs(o, targets, base, &catalogs)
	if err != nil {
		return err
	}
	if o.fix || o.diff {
		if err := applyFixes(o, targets, jobs, limits, !o.diff); err != nil {
			return err
		}
		if o.diff {
			return nil
		}
	}
	trees := make([]spec.Tree, len(targets)) // each pack's, for the json and sarif reports
	load := func(j lint.Job) (*pack.Pack, error) {
		if err := ctx.Err(); err != nil { // Ctrl-C: no more packs
			return nil, err
		}
		i := slices.IndexFunc(targets, func(t target) bool { return t.path == j.Path })
		pk, err := pack.Load(j.Path, limits[i])
		if err != nil {
			return nil, err
		}
		pk.Display = pack.DisplayName(targets[i].display)
		if o.format == "json" || o.format == "sarif" { // the reports that name it: reading the manifest again was 5% of a folder's text lint
			trees[i] = treeOf(pk, j.Opt.Spec)
		}
		return pk, nil
	}
	var diags []diag.Diagnostic
	var loadErrs []error
	var packs []report.PackSpec
	for i, r := range lint.RunAll(jobs, load) {
		if r.Err != nil {
			loadErrs = append(loadErrs, fmt.Errorf("%s: %w", targets[i].display, withoutPath(r.Err)))
			continue
		}
		diags = append(diags, r.Diags...)
		packs = append(packs, report.PackSpec{Path: targets[i].display, Spec: string(trees[i])})
	}
	base.Cache.Trim() // at most once a day; otherwise one stat
	agfDiags, err := lintLooseAgentFormat(o.env, looseAGF)
	if err != nil {
		return err
	}
	diags = append(diags, agfDiags...)
	if o.against != "" {
		verdict, err := releaseVerdict(ctx, o, targets, jobs, limits)
		if err != nil {
			return err
		}
		diags = append(diags, verdict...)
	}
	if !o.info {
		diags = slices.DeleteFunc(diags, func(d diag.Diagnostic) bool { return d.Severity == diag.Info })
	}
	diags = diag.Sort(diags)
	if o.writeBaseline != "" {
		return writeBaseline(o, diags)
	}
	if diags, err = applyBaseline(o, diags); err != nil {
		return err
	}
	if len(loadErrs) > 0 && o.output != "" {
		return &cli.UsageError{Err: errors.Join(loadErrs...)} // no partial report file
	}
	rules := lint.Infos()
	if o.format == "sarif" {
		rules = lint.InfosWithDocs()
	}
	if o.against != "" {
		rules = append(rules, releaseRules()...)
	}
	in := report.Input{Tool: "wop", Version: o.env.Version, Rules: rules, Diags: diags, Color: o.env.Color && o.output == "", BaseDir: o.env.WorkDir,
		Spec: spec.Versions(), Packs: packs, Incomplete: catalogs.incomplete()}
	if err := writeLintReport(o, in); err != nil {
		return err
	}
	counts := diag.Count(diags)
	if o.format == "text" {
		fmt.Fprintln(o.env.ErrOut, report.Summary(counts, len(targets)-len(loadErrs)+len(looseAGF), "pack"))
		if in.Incomplete != nil {
			fmt.Fprintln(o.env.ErrOut, in.Incomplete.Message)
		}
	}
	if len(loadErrs) > 0 {
		return &cli.UsageError{Err: errors.Join(loadErrs...)}
	}
	if counts.Errors > 0 || o.strict && counts.Warnings > 0 {
		return cli.ErrFindings
	}
	return nil
}

// lintTargets expands the arguments into packs to lint, and AgentFormat
// files outside any pack (only with --changed).
func lintTargets(o *lintOptions) ([]target, []string, error) {
	if o.changed {
		return changedTargets(o.env, o.paths)
	}
	targets, err := expandTargets(o.env, o.paths)
	return targets, nil, err
}

// writeLintReport writes the report to --output or Out. A file is written
// atomically and only here, after lint ran: a usage error or unreadable
// input leaves no empty or half-written report for CI to upload.
func writeLintReport(o *lintOptions, in report.Input) error {
	if o.output == "" {
		return report.Print(o.env.Out, o.format, in)
	}
	var buf bytes.Buffer
	if err := report.Print(&buf, o.format, in); err != nil {
		return err
	}
	return writeOutputFile(o.env.Abs(o.output), "--output", buf.Bytes())
}

// writeOutputFile writes a file lint produces (--output, --write-baseline).
// An existing device or pipe (/dev/stdout, a FIFO) is written into; a
// regular file is replaced atomically.
func writeOutputFile(path, flag string, data []byte) error {
	if info, err := os.Stat(path); err == nil && (info.Mode()&fs.ModeNamedPipe != 0 || info.Mode()&fs.ModeCharDevice != 0) {
		return writeInto(path, flag, data)
	}
	if err := atomicfile.Write(path, data, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", flag, err)
	}
	return nil
}

// checkOutput refuses a file flag (--output, --write-baseline) that cannot
// name lint's output before lint runs: a directory (build's -o is one,
// lint's are files), or the name of a pack's own source, which the output
// would replace. example is a good name to suggest.
func checkOutput(env *cli.Env, flag, output, example string) error {
	if output == "" {
		return nil
	}
	if info, err := os.Stat(env.Abs(output)); err == nil && info.IsDir() {
		return cli.Usagef("%s %s is a directory; name the file to write, e.g. %s", flag, output, example)
	}
	switch base := filepath.Base(output); {
	case base == pack.ManifestName, base == ".wop.yaml", base == ".wop.yml",
		strings.HasSuffix(base, ".agf.yaml"), strings.HasSuffix(base, ".agf.yml"):
		return cli.Usagef("%s %s would replace a pack's source; name another file, e.g. %s", flag, output, example)
	}
	return nil
}

// writeInto writes into an existing device or pipe (/dev/stdout, a FIFO)
// instead of renaming a file over it: an atomic replace would swap the
// device itself for a regular file.
func writeInto(path, flag string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("write %s: %w", flag, err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", flag, err)
	}
	return f.Close()
}

// lintJobs gives each target the options and limits of its configuration.
func lintJobs(o *lintOptions, targets []target, base lint.Options, catalogs *catalogLoader) ([]lint.Job, []tarball.Limits, error) {
	jobs := make([]lint.Job, len(targets))
	limits := make([]tarball.Limits, len(targets))
	seen := newSettingsMemo()
	for i, t := range targets {
		s, err := settingsFor(o.env, o.config, t.path, base, seen)
		if err != nil {
			return nil, nil, err
		}
		jobs[i], limits[i] = lint.Job{Path: t.path, Opt: s.opt}, s.limits
		if base.Catalog == nil {
			if jobs[i].Opt.Catalog, err = catalogs.forPack(s.catalogs, t.path); err != nil {
				return nil, nil, err
			}
		}
		host, why := s.host, "configured"
		if o.host != "" {
			host, why = o.env.Abs(o.host), "--host"
		}
		if jobs[i].Opt.Catalog, err = catalogs.withHost(jobs[i].Opt.Catalog, host, why); err != nil {
			return nil, nil, err
		}
		profile, _ := lint.FindRuleProfile(cmp.Or(o.profile, s.profile)) // both checked already
		jobs[i].Opt.Severities = lint.WithProfile(profile, s.opt.Severities)
	}
	return jobs, limits, nil
}

func writeBaseline(o *lintOptions, diags []diag.Diagnostic) error {
	out, err := lint.NewBaseline(diags).MarshalIndent()
	if err != nil {
		return err
	}
	if err := writeOutputFile(o.env.Abs(o.writeBaseline), "--write-baseline", out); err != nil {
		return err
	}
	fmt.Fprintf(o.env.ErrOut, "wrote %d findings to %s; lint with --baseline %s to report only new ones\n", len(diags), o.writeBaseline, o.writeBaseline)
	return nil
}

func applyBaseline(o *lintOptions, diags []diag.Diagnostic) ([]diag.Diagnostic, error) {
	if o.baseline == "" {
		return diags, nil
	}
	b, err := lint.LoadBaseline(o.env.Abs(o.baseline))
	if err != nil {
		return nil, cli.Usagef("--baseline: %v", withoutPath(err))
	}
	for _, w := range b.Upgrade(lint.All()) {
		fmt.Fprintf(o.env.ErrOut, "--baseline %s: warning: %s\n", o.baseline, w)
	}
	diags, n := b.Filter(diags)
	if n > 0 && o.format == "text" {
		fmt.Fprintf(o.env.ErrOut, "%d findings accepted by the baseline %s\n", n, o.baseline)
	}
	return diags, nil
}

// lintOpts are the lint options every command uses: the public profile and
// the result cache (unless disabled, or the binary cannot be identified).
// A cache that cannot be written is said once, as a warning.
func lintOpts(env *cli.Env, noCache bool) lint.Options {
	opt := lint.Options{CacheSalt: env.Version + "|" + env.BuildID}
	if !noCache && env.BuildID != "" {
		opt.Cache.Dir, opt.Cache.Now = env.CacheDir, env.Now
		var once sync.Once
		opt.Cache.Warn = func(err error) {
			once.Do(func() {
				fmt.Fprintf(env.ErrOut, "wop: warning: results not cached: %v (set WOP_CACHE_DIR to a writable directory, or WOP_CACHE_DIR=off)\n", err)
			})
		}
	}
	return opt
}

// ruleIDs lists every rule id, for completion and did-you-mean.
func ruleIDs() []string {
	var ids []string
	for _, info := range lint.Infos() {
		ids = append(ids, info.ID)
	}
	return ids
}

// treeOf is the spec generation lint judges pk by: the one asked for, or
// under auto the one its engine range picks (as lint's pass does). A
// manifest that does not parse is judged as v1.
func treeOf(pk *pack.Pack, asked spec.Tree) spec.Tree {
	if asked == spec.V1 || asked == spec.V2 {
		return asked
	}
	raw, err := pk.ReadFile(pack.ManifestName)
	if err != nil {
		return spec.V1
	}
	doc, err := jsonpos.Parse(raw)
	if err != nil {
		return spec.V1
	}
	return spec.TreeOf(doc.Root)
}
