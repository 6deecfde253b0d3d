package graphrun

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/wop-cli/wop/internal/chaindraw"
	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/lintrun"
	"github.com/wop-cli/wop/internal/releasecheck"
)

// SummaryRequest is a lint run's GitHub step summary: `wop pack lint
// --format github` with $GITHUB_STEP_SUMMARY set appends the Mermaid
// drawing of each chain lint reported on (and, with --against, of each
// that changed).
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
// (chaindraw.Summary, bounded) for the chains lint reported on or that
// changed; nothing when there are none, the variable is unset or the
// format is not github.
func AppendSummary(ctx context.Context, env *lintrun.Env, r SummaryRequest) error {
	path := env.Getenv("GITHUB_STEP_SUMMARY")
	if path == "" || r.Format != "github" {
		return nil
	}
	reported := map[string]bool{} // file + pointer of each chain finding
	for _, d := range r.Diags {
		if strings.HasPrefix(d.Rule, "chain-") {
			reported[d.File+"#"+d.Pointer] = true
		}
	}
	if len(reported) == 0 && r.Against == "" {
		return nil
	}
	charts, err := Charts(ctx, env, Options{Paths: r.Lint.Paths, Config: r.Lint.Config, Catalogs: r.Lint.Catalogs, Host: r.Lint.Host,
		Offline: r.Lint.Offline, Spec: r.Lint.Spec, Against: r.Against, Previous: r.Previous})
	if err != nil {
		return err
	}
	var drawn []chaindraw.Chart
	for _, c := range charts {
		if c.Changes.Any() || hasReported(c, reported) {
			drawn = append(drawn, c)
		}
	}
	if len(drawn) == 0 {
		return nil
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("GITHUB_STEP_SUMMARY: %w", err)
	}
	_, err = f.Write(chaindraw.Summary(drawn))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func hasReported(c chaindraw.Chart, reported map[string]bool) bool {
	for _, f := range c.DAG.Findings {
		if reported[c.File+"#"+f.Pointer] {
			return true
		}
	}
	return false
}
