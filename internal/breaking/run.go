package breaking

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/wop-cli/wop/internal/config"
	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/exitcode"
	"github.com/wop-cli/wop/internal/lintrun"
	"github.com/wop-cli/wop/internal/pack"
	prevrelease "github.com/wop-cli/wop/internal/release"
	"github.com/wop-cli/wop/internal/report"
	"github.com/wop-cli/wop/internal/tarball"
)

// PreviousFunc loads the release an --against value names (release.Previous
// with the caller's registry credentials); the returned func removes any
// temporary file. It returns prevrelease.ErrNoPrevious for a first release.
type PreviousFunc func(ctx context.Context, ref, packPath string, lim tarball.Limits) (*pack.Pack, func(), error)

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
	oldPk, cleanup, err := r.Previous(ctx, r.Against, abs, tarball.DefaultLimits)
	defer cleanup()
	if errors.Is(err, prevrelease.ErrNoPrevious) {
		fmt.Fprintf(r.Lint.ErrOut, "no previous release at %s: nothing to compare\n", r.Against)
		return false, report.Print(r.Lint.Out, r.Format, report.Input{Tool: "wop", Version: r.Lint.Version, Rules: Infos()})
	}
	if err != nil {
		return false, err
	}
	opt := Options{Accept: AcceptList(cfg)}
	catalogs := lintrun.NewCatalogs(false, false)
	if r.Catalog != "" {
		cat, err := catalogs.Load(ctx, r.Lint, lintrun.CatalogSrc(r.Lint, r.Catalog), "--catalog")
		if err != nil {
			return false, err
		}
		opt.Provides = cat.HasType
	}
	res, err := Compare(oldPk, newPk, opt)
	if err != nil {
		return false, exitcode.Usagef("%v", err)
	}
	return r.print(res, catalogs.Incomplete())
}

// print writes the report and the verdict and says whether they fail the run.
func (r Request) print(res *Result, incomplete *report.Incomplete) (failed bool, err error) {
	diags := res.Diagnostics()
	if !r.Info {
		diags = slices.DeleteFunc(diags, func(d diag.Diagnostic) bool { return d.Severity == diag.Info })
	}
	in := report.Input{Tool: "wop", Version: r.Lint.Version, Rules: Infos(), Diags: diag.Sort(diags), Color: r.Color, Incomplete: incomplete}
	if err := report.Print(r.Lint.Out, r.Format, in); err != nil {
		return false, err
	}
	counts := diag.Count(diags)
	verdict := slices.ContainsFunc(diags, func(d diag.Diagnostic) bool { return slices.Contains(releaseRuleIDs, d.Rule) })
	if r.Format == "text" {
		res.WriteVerdict(r.Lint.ErrOut, in.Incomplete)
	}
	return verdict || r.Strict && counts.Errors+counts.Warnings > 0, nil
}

// CompareWith compares pk (in dir) with the release against names; a first
// release compares with nothing (bump auto then picks a patch step).
func CompareWith(ctx context.Context, previous PreviousFunc, against, dir string, pk *pack.Pack, cfg *config.Config) (*Result, error) {
	oldPk, cleanup, err := previous(ctx, against, dir, tarball.DefaultLimits)
	defer cleanup()
	if errors.Is(err, prevrelease.ErrNoPrevious) {
		cur, err := pk.ManifestString("version")
		return &Result{OldVersion: cur}, err
	}
	if err != nil {
		return nil, err
	}
	res, err := Compare(oldPk, pk, Options{Accept: AcceptList(cfg)})
	if err != nil {
		return nil, exitcode.Usagef("%v", err)
	}
	return res, nil
}

// AcceptList is the configuration's breaking.accept entries.
func AcceptList(c *config.Config) []Acceptance {
	var out []Acceptance
	for _, a := range c.Breaking.Accept {
		out = append(out, Acceptance{Rule: a.Rule, Where: a.Where})
	}
	return out
}
