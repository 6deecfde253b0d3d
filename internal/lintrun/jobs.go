package lintrun

import (
	"context"

	"github.com/wop-cli/wop/internal/lint"
	"github.com/wop-cli/wop/internal/tarball"
)

// Jobs are the packs o names (Paths, Config, Catalogs, Host, Profile,
// Spec, Offline), each with the lint options and size limits its
// configuration gives, exactly as Run lints them: for commands that read
// the packs another way (wop pack graph draws their chain analysis with
// the catalog lint judges them by). Catalogs are opened lazily.
func Jobs(ctx context.Context, env *Env, o Options) ([]Target, []lint.Job, []tarball.Limits, error) {
	p, err := prepare(ctx, env, o)
	if err != nil {
		return nil, nil, nil, err
	}
	return p.targets, p.jobs, p.limits, nil
}
