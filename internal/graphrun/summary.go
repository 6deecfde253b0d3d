package graphrun

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/wop-cli/wop/internal/chaindraw"
	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/lint"
	"github.com/wop-cli/wop/internal/lintrun"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/release"
	"github.com/wop-cli/wop/internal/releasecheck"
	"github.com/wop-cli/wop/internal/tarball"
)

// SummaryRequest is a lint run's GitHub step summary: `wop pack lint
// --format github` with $GITHUB_STEP_SUMMARY set appends a table of its
// findings, each linking to its line in the pull request's head, and the
// Mermaid drawing of each chain with a finding (and, with --against, of
// each that changed; the findings the previous release has too are then
// listed apart).
type SummaryRequest struct {
	// Format is lint's --format: only "github" writes a summary.
	Format string
	// Lint are the run's options (its packs, configuration, catalogs).
	Lint lintrun.Options
	// Diags are the findings the run reported, after its filters: a chain
	// is drawn when one of them is a chain finding on it.
	Diags    []diag.Diagnostic
	Against  string
	Previous releasecheck.PreviousFunc
}

// AppendSummary appends to $GITHUB_STEP_SUMMARY the Markdown
// (chaindraw.StepSummary, bounded) of the run's findings and the chains
// they are on or that changed; nothing when there are neither, the
// variable is unset or the format is not github. An error drawing the
// chains or linting the previous release is returned once what could be
// summarised is written.
func AppendSummary(ctx context.Context, env *lintrun.Env, r SummaryRequest) error {
	path := env.Getenv("GITHUB_STEP_SUMMARY")
	if path == "" || r.Format != "github" {
		return nil
	}
	if r.Previous != nil {
		var done func()
		r.Previous, done = loadOnce(r.Previous)
		defer done()
	}
	charts, drawErr := summaryCharts(ctx, env, r)
	if len(r.Diags) == 0 && len(charts) == 0 {
		return drawErr
	}
	in := chaindraw.SummaryInput{Findings: r.Diags, Against: r.Against, Link: newLinker(env).url, Charts: charts, Invoked: env.Invoked}
	var oldErr error
	if r.Against != "" {
		in.Old, oldErr = oldFindings(ctx, env, r)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("GITHUB_STEP_SUMMARY: %w", err)
	}
	_, err = f.Write(chaindraw.StepSummary(in))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return errors.Join(err, drawErr, oldErr)
}

// loadOnce is load reading each release once: the summary's drawings and
// its old findings both need each pack's previous release, which may be a
// registry download or a git checkout. done runs the cleanups of what it
// loaded, once neither needs it any more.
func loadOnce(load releasecheck.PreviousFunc) (once releasecheck.PreviousFunc, done func()) {
	type loaded struct {
		pk  *pack.Pack
		err error
	}
	seen := map[[2]string]loaded{} // by ref and pack path
	var cleanups []func()
	once = func(ctx context.Context, ref, packPath string, lim tarball.Limits) (*pack.Pack, func(), error) {
		k := [2]string{ref, packPath}
		if l, ok := seen[k]; ok {
			return l.pk, nil, l.err
		}
		pk, cleanup, err := load(ctx, ref, packPath, lim)
		if cleanup != nil {
			cleanups = append(cleanups, cleanup)
		}
		seen[k] = loaded{pk, err}
		return pk, nil, err
	}
	return once, func() {
		for _, c := range cleanups {
			c()
		}
	}
}

// summaryCharts are the chains to draw: each a chain finding of the run is
// on, and with --against each that changed. Packs without chains give
// none.
func summaryCharts(ctx context.Context, env *lintrun.Env, r SummaryRequest) ([]chaindraw.Chart, error) {
	reported := map[string]bool{} // file + pointer of each chain finding
	for _, d := range r.Diags {
		if strings.HasPrefix(d.Rule, "chain-") {
			reported[d.File+"#"+d.Pointer] = true
		}
	}
	if len(reported) == 0 && r.Against == "" {
		return nil, nil
	}
	charts, err := Charts(ctx, env, Options{Paths: r.Lint.Paths, Config: r.Lint.Config, Catalogs: r.Lint.Catalogs, Host: r.Lint.Host,
		Offline: r.Lint.Offline, Spec: r.Lint.Spec, Against: r.Against, Previous: r.Previous})
	if errors.Is(err, release.ErrNoPrevious) { // a first release: nothing changed, only findings drawn
		o := Options{Paths: r.Lint.Paths, Config: r.Lint.Config, Catalogs: r.Lint.Catalogs, Host: r.Lint.Host, Offline: r.Lint.Offline, Spec: r.Lint.Spec}
		charts, err = Charts(ctx, env, o)
	}
	if errors.Is(err, errNoChains) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("the step summary's chain drawings: %w", err)
	}
	var drawn []chaindraw.Chart
	for _, c := range charts {
		if c.Changes.Any() || hasReported(c, reported) {
			drawn = append(drawn, c)
		}
	}
	return drawn, nil
}

func hasReported(c chaindraw.Chart, reported map[string]bool) bool {
	for _, f := range c.DAG.Findings {
		if reported[c.File+"#"+f.Pointer] {
			return true
		}
	}
	return false
}

// oldFindings marks the findings of r.Diags the previous release has too:
// each pack's release r.Against names, linted with the pack's options,
// matched as a baseline matches (rule, file, pointer, message; one
// previous finding absorbs one). A pack without a previous release has
// only new findings.
func oldFindings(ctx context.Context, env *lintrun.Env, r SummaryRequest) ([]bool, error) {
	if r.Previous == nil {
		return nil, errors.New("--against: no loader for the previous release")
	}
	o := r.Lint
	o.NoCache, o.Baseline = true, ""
	targets, jobs, limits, err := lintrun.Jobs(ctx, env, o)
	if err != nil {
		return nil, err
	}
	left := map[lint.BaselineEntry]int{}
	var errs []error
	for i, t := range targets {
		pk, cleanup, err := r.Previous(ctx, r.Against, t.Path, limits[i])
		if errors.Is(err, release.ErrNoPrevious) {
			continue // a first release: every finding is new
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("the step summary's old findings: %s: %w", t.Display, err))
			continue
		}
		pk.Display = pack.DisplayName(t.Display)
		opt := jobs[i].Opt
		opt.Cache.Dir = ""
		ds, err := lint.Run(pk, opt)
		if cleanup != nil {
			cleanup()
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("the step summary's old findings: %s: %w", t.Display, err))
			continue
		}
		for _, e := range lint.NewBaseline(ds).Findings {
			left[e]++
		}
	}
	old := make([]bool, len(r.Diags))
	for i, d := range r.Diags {
		e := lint.NewBaseline([]diag.Diagnostic{d}).Findings[0]
		if left[e] > 0 {
			left[e]--
			old[i] = true
		}
	}
	return old, errors.Join(errs...)
}
