package packcmd

import (
	"context"
	"github.com/wop-cli/wop/internal/report"
	"path/filepath"

	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/catalog"
	"github.com/wop-cli/wop/internal/lintrun"
)

// catalogLoader opens the catalogs a command uses, each once; it adapts
// lintrun.Catalogs to the commands of this package.
type catalogLoader struct {
	ctx      context.Context
	env      *cli.Env
	offline  bool
	announce bool
	open     map[string]*catalog.Catalog
	inner    *lintrun.Catalogs // made on first use, sharing open
}

func (l *catalogLoader) loader() *lintrun.Catalogs {
	if l.inner == nil {
		l.inner = &lintrun.Catalogs{Offline: l.offline, Announce: l.announce, Open: l.open}
	}
	return l.inner
}

// catalogSrc makes a catalog argument absolute unless it is a URL.
func catalogSrc(env *cli.Env, src string) string { return lintrun.CatalogSrc(runEnv(env), src) }

func (l *catalogLoader) forPack(configured []string, packPath string) (*catalog.Catalog, error) {
	c, err := l.loader().ForPack(l.ctx, runEnv(l.env), configured, packPath)
	return c, usage(err)
}

func (l *catalogLoader) load(src, why string) (*catalog.Catalog, error) {
	c, err := l.loader().Load(l.ctx, runEnv(l.env), src, why)
	return c, usage(err)
}

func (l *catalogLoader) incomplete() *report.Incomplete { return l.loader().Incomplete() }

// displayRel names a directory relative to the working directory.
func displayRel(env *cli.Env, dir string) string {
	if rel, err := filepath.Rel(env.WorkDir, dir); err == nil {
		return rel
	}
	return dir
}
