package releasecheck

import (
	"context"

	"github.com/wop-cli/wop/internal/breaking"
	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/exitcode"
	"github.com/wop-cli/wop/internal/lint"
	"github.com/wop-cli/wop/internal/lintrun"
	"github.com/wop-cli/wop/internal/pack"
	prevrelease "github.com/wop-cli/wop/internal/release"
	"github.com/wop-cli/wop/internal/tarball"
)

// Lint is lint --against: the one pack being linted compared with the
// previous release Against names.
type Lint struct {
	Env      *lintrun.Env
	Previous PreviousFunc
	Against  string
	Config   string // --config
}

// Verdict compares the one pack being linted with the previous release
// and returns the release rules' findings (lintrun.Run's Against).
func (c Lint) Verdict(ctx context.Context, targets []lintrun.Target, jobs []lint.Job, limits []tarball.Limits) ([]diag.Diagnostic, error) {
	if len(targets) != 1 {
		return nil, exitcode.Usagef("--against compares one pack with its previous release; %d packs given", len(targets))
	}
	pk, err := pack.Load(jobs[0].Path, limits[0])
	if err != nil {
		return nil, nil // the lint run reports why it cannot be read
	}
	pk.Display = pack.DisplayName(targets[0].Display)
	cfg, err := lintrun.PackConfig(c.Env, c.Config, prevrelease.PackDir(jobs[0].Path))
	if err != nil {
		return nil, err
	}
	res, first, err := comparison{previous: c.Previous, against: c.Against, dir: jobs[0].Path, limits: limits[0], cfg: cfg}.run(ctx, pk)
	if first || err != nil {
		return nil, err
	}
	var out []diag.Diagnostic
	for _, d := range res.Diagnostics() {
		if breaking.IsReleaseRule(d.Rule) {
			out = append(out, d)
		}
	}
	return out, nil
}
