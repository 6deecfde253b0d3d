package releasecheck

import (
	"context"
	"fmt"
	"slices"

	"github.com/wop-cli/wop/internal/breaking"
	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/exitcode"
	"github.com/wop-cli/wop/internal/lintrun"
	"github.com/wop-cli/wop/internal/pack"
	prevrelease "github.com/wop-cli/wop/internal/release"
	"github.com/wop-cli/wop/internal/report"
	"github.com/wop-cli/wop/internal/tarball"
)

// Request is one `wop pack breaking` run.
type Request struct {
	Lint     *lintrun.Env // its Out gets the report, its ErrOut the verdict
	Color    bool
	Path     string // the pack as the user named it
	Against  string
	Catalog  string // --catalog, "" for none
	Config   string
	Format   string
	Strict   bool
	Info     bool
	Previous PreviousFunc
}

// Run compares the pack at r.Path with the release r.Against names and
// prints the report; failed says the verdict (or --strict) fails the run.
func Run(ctx context.Context, r Request) (failed bool, err error) {
	abs := r.Lint.Abs(r.Path)
	newPk, err := pack.Load(abs, tarball.DefaultLimits)
	if err != nil {
		return false, exitcode.Usagef("%s: %v", r.Path, lintrun.WithoutPath(err))
	}
	newPk.Display = pack.DisplayName(r.Path)
	cfg, err := lintrun.PackConfig(r.Lint, r.Config, prevrelease.PackDir(abs))
	if err != nil {
		return false, err
	}
	c := comparison{previous: r.Previous, against: r.Against, dir: abs, limits: tarball.DefaultLimits, cfg: cfg}
	old, cleanup, first, err := c.load(ctx) // before the catalog: a first release needs none
	defer cleanup()
	if err != nil {
		return false, err
	}
	if first {
		fmt.Fprintf(r.Lint.ErrOut, "no previous release at %s: nothing to compare\n", r.Against)
		return false, report.Print(r.Lint.Out, r.Format, report.Input{Tool: "wop", Version: r.Lint.Version, Rules: breaking.Infos()})
	}
	catalogs := lintrun.NewCatalogs(false, false)
	if r.Catalog != "" {
		cat, err := catalogs.Load(ctx, r.Lint, lintrun.CatalogSrc(r.Lint, r.Catalog), "--catalog")
		if err != nil {
			return false, err
		}
		c.provides = cat.HasType
	}
	res, err := c.compare(old, newPk)
	if err != nil {
		return false, err
	}
	return r.print(res, catalogs.Incomplete())
}

// print writes the report and the verdict and says whether they fail the run.
func (r Request) print(res *breaking.Result, incomplete *report.Incomplete) (failed bool, err error) {
	diags := res.Diagnostics()
	if !r.Info {
		diags = slices.DeleteFunc(diags, func(d diag.Diagnostic) bool { return d.Severity == diag.Info })
	}
	in := report.Input{Tool: "wop", Version: r.Lint.Version, Rules: breaking.Infos(), Diags: diag.Sort(diags), Color: r.Color, Incomplete: incomplete}
	if err := report.Print(r.Lint.Out, r.Format, in); err != nil {
		return false, err
	}
	counts := diag.Count(diags)
	verdict := slices.ContainsFunc(diags, func(d diag.Diagnostic) bool { return breaking.IsReleaseRule(d.Rule) })
	if r.Format == "text" {
		fmt.Fprintln(r.Lint.ErrOut, res.Verdict())
		if incomplete != nil {
			fmt.Fprintln(r.Lint.ErrOut, incomplete.Message)
		}
	}
	return verdict || r.Strict && counts.Errors+counts.Warnings > 0, nil
}
