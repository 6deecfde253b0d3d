package breaking

import (
	"context"
	"errors"
	"slices"

	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/exitcode"
	"github.com/wop-cli/wop/internal/lint"
	"github.com/wop-cli/wop/internal/lintrun"
	"github.com/wop-cli/wop/internal/pack"
	prevrelease "github.com/wop-cli/wop/internal/release"
	"github.com/wop-cli/wop/internal/tarball"
)

// releaseRuleIDs are the breaking rules lint --against reports: the two
// that say a release is wrong, not merely what changed.
var releaseRuleIDs = []string{RuleBumpInsufficient, RuleVersionMutated}

// ReleaseRules are the rules lint --against adds to lint's own.
func ReleaseRules() []diag.RuleInfo {
	var out []diag.RuleInfo
	for _, r := range Infos() {
		if slices.Contains(releaseRuleIDs, r.ID) {
			out = append(out, r)
		}
	}
	return out
}

// ReleaseCheck is lint --against: the one pack being linted compared with
// the previous release Against names.
type ReleaseCheck struct {
	Env      *lintrun.Env
	Previous PreviousFunc
	Against  string
	Config   string // --config
}

// Verdict compares the one pack being linted with the previous release
// and returns the verdict findings (lintrun.Run's Against).
func (c ReleaseCheck) Verdict(ctx context.Context, targets []lintrun.Target, jobs []lint.Job, limits []tarball.Limits) ([]diag.Diagnostic, error) {
	if len(targets) != 1 {
		return nil, exitcode.Usagef("--against compares one pack with its previous release; %d packs given", len(targets))
	}
	pk, err := pack.Load(jobs[0].Path, limits[0])
	if err != nil {
		return nil, nil // the lint run reports why it cannot be read
	}
	pk.Display = pack.DisplayName(targets[0].Display)
	oldPk, cleanup, err := c.Previous(ctx, c.Against, jobs[0].Path, limits[0])
	defer cleanup()
	if errors.Is(err, prevrelease.ErrNoPrevious) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	cfg, err := lintrun.PackConfig(c.Env, c.Config, prevrelease.PackDir(jobs[0].Path))
	if err != nil {
		return nil, err
	}
	res, err := Compare(oldPk, pk, Options{Accept: AcceptList(cfg)})
	if err != nil {
		return nil, exitcode.Usagef("%v", err)
	}
	var out []diag.Diagnostic
	for _, d := range res.Diagnostics() {
		if slices.Contains(releaseRuleIDs, d.Rule) {
			out = append(out, d)
		}
	}
	return out, nil
}
