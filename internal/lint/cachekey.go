package lint

import (
	"github.com/wop-cli/wop/internal/config"
	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/lintcache"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/tarball"
)

// cacheInputs is everything a lint result depends on. Rules see only a
// *Pass (the pack, the profile, the catalog and wop's embedded schemas) and
// the run applies Options afterwards; TestCacheKeyCoversEveryInput fails
// when a field is added to any of those without being keyed here.
type cacheInputs struct {
	Build    string // wop's version and build: the rules and embedded schemas
	Rules    []ruleKey
	Display  string // findings name files by it
	Place    Place  // the directory's name and sibling packs
	Limits   tarball.Limits
	Profile  Profile
	Catalog  *PackCatalog
	Severity map[string]diag.Severity
	Ignores  map[string][]config.Glob
	Contents lintcache.Contents
}

type ruleKey struct {
	ID       string
	Severity diag.Severity
}

// cacheKey digests pk's inputs. It reads every file of a directory pack
// (or the archive's bytes), which lint does anyway.
func cacheKey(pk *pack.Pack, opt Options) (string, error) {
	in := cacheInputs{
		Build:    opt.CacheSalt,
		Display:  pk.Display,
		Limits:   pk.Limits(),
		Profile:  opt.Profile,
		Catalog:  opt.Catalog,
		Severity: opt.Severities,
		Ignores:  opt.Ignores,
	}
	for _, r := range All() {
		in.Rules = append(in.Rules, ruleKey{r.ID, r.Severity})
	}
	var err error
	if in.Place, err = placeOf(pk); err != nil {
		return "", err
	}
	if in.Contents, err = lintcache.Digest(pk); err != nil {
		return "", err
	}
	return lintcache.Key(in)
}
