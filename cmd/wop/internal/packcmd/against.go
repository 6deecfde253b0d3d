package packcmd

import (
	"context"

	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/registry"
	"github.com/wop-cli/wop/internal/release"
	"github.com/wop-cli/wop/internal/releasecheck"
	"github.com/wop-cli/wop/internal/tarball"
)

// previous loads the release --against names (release.Previous) with
// env's registry and credentials, its errors given their exit codes. The
// returned cleanup removes any temporary file.
func previous(env *cli.Env) releasecheck.PreviousFunc {
	return func(ctx context.Context, ref, packPath string, lim tarball.Limits) (*pack.Pack, func(), error) {
		pk, cleanup, err := release.Previous(ctx, ref, packPath, release.Options{
			Abs:       env.Abs,
			Registry:  env.Getenv("WOP_REGISTRY"),
			Token:     func(base string) (registry.Token, error) { return readToken(env, base) }, // base is $WOP_REGISTRY: WOP_TOKEN is its token
			UserAgent: "wop/" + env.Version,
			Transport: env.HTTPClient().Transport,
			CacheRoot: env.CacheDir,
			Now:       env.Now,
			Limits:    lim,
		})
		return pk, cleanup, release.ExitError(err)
	}
}
