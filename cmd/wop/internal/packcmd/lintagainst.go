package packcmd

import (
	"context"
	"errors"
	"slices"

	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/breaking"
	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/lint"
	"github.com/wop-cli/wop/internal/lintrun"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/release"
	"github.com/wop-cli/wop/internal/tarball"
)

// releaseRuleIDs are the breaking rules lint --against reports: the two
// that say a release is wrong, not merely what changed.
var releaseRuleIDs = []string{breaking.RuleBumpInsufficient, breaking.RuleVersionMutated}

func releaseRules() []diag.RuleInfo {
	var out []diag.RuleInfo
	for _, r := range breaking.Infos() {
		if slices.Contains(releaseRuleIDs, r.ID) {
			out = append(out, r)
		}
	}
	return out
}

// releaseVerdict compares the one pack being linted with the previous
// release against names and returns the verdict findings; config is
// --config.
func releaseVerdict(ctx context.Context, env *cli.Env, against, config string, targets []lintrun.Target, jobs []lint.Job, limits []tarball.Limits) ([]diag.Diagnostic, error) {
	if len(targets) != 1 {
		return nil, cli.Usagef("--against compares one pack with its previous release; %d packs given", len(targets))
	}
	pk, err := pack.Load(jobs[0].Path, limits[0])
	if err != nil {
		return nil, nil // the lint run reports why it cannot be read
	}
	pk.Display = pack.DisplayName(targets[0].Display)
	oldPk, cleanup, err := previous(env)(ctx, against, jobs[0].Path, limits[0])
	defer cleanup()
	if errors.Is(err, release.ErrNoPrevious) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	cfg, err := lintrun.PackConfig(env.Lint(), config, release.PackDir(jobs[0].Path))
	if err != nil {
		return nil, err
	}
	res, err := breaking.Compare(oldPk, pk, breaking.Options{Accept: breaking.AcceptList(cfg)})
	if err != nil {
		return nil, cli.Usagef("%v", err)
	}
	var out []diag.Diagnostic
	for _, d := range res.Diagnostics() {
		if slices.Contains(releaseRuleIDs, d.Rule) {
			out = append(out, d)
		}
	}
	return out, nil
}
