package packcmd

import (
	"errors"

	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/config"
	"github.com/wop-cli/wop/internal/lint"
	"github.com/wop-cli/wop/internal/lintrun"
	"github.com/wop-cli/wop/internal/tarball"
)

// This file adapts internal/lintrun (where lint's orchestration lives) to
// the names the other commands of this package call; they may call
// lintrun directly instead.

// runEnv is env as lintrun sees it.
func runEnv(env *cli.Env) *lintrun.Env {
	return &lintrun.Env{WorkDir: env.WorkDir, Getenv: env.Getenv, Out: env.Out, ErrOut: env.ErrOut, Version: env.Version,
		BuildID: env.BuildID, CacheDir: env.CacheDir, Now: env.Now, HTTPClient: env.HTTPClient}
}

// usage makes lintrun's input errors usage errors (exit 2).
func usage(err error) error {
	var in *lintrun.InputError
	if errors.As(err, &in) {
		return &cli.UsageError{Err: err}
	}
	return err
}

// packSettings are what a pack's configuration decides (lintrun.Settings).
type packSettings struct {
	opt          lint.Options
	limits       tarball.Limits
	keyID        string
	allowOrigins []string
	catalogs     []string
}

type settingsMemo struct{ memo *lintrun.SettingsMemo }

func newSettingsMemo() *settingsMemo { return &settingsMemo{lintrun.NewSettingsMemo()} }

// settingsFor is lintrun.SettingsFor.
func settingsFor(env *cli.Env, explicit, packPath string, base lint.Options, memo *settingsMemo) (*packSettings, error) {
	s, err := lintrun.SettingsFor(runEnv(env), explicit, packPath, base, memo.memo, nil)
	if err != nil {
		return nil, usage(err)
	}
	return &packSettings{opt: s.Opt, limits: s.Limits, keyID: s.KeyID, allowOrigins: s.AllowOrigins, catalogs: s.Catalogs}, nil
}

// lintOpts is lintrun.LintOptions.
func lintOpts(env *cli.Env, noCache bool) lint.Options {
	return lintrun.LintOptions(runEnv(env), noCache)
}

func configError(env *cli.Env, path string, err error) error {
	return usage(lintrun.ConfigError(runEnv(env), path, err))
}

func discovery(env *cli.Env) config.Discovery { return lintrun.Discovery(runEnv(env)) }

func knownRule(id string) (bool, string) { return lintrun.KnownRule(id) }

func withoutPath(err error) error { return lintrun.WithoutPath(err) }
