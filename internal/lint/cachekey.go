package lint

import (
	"github.com/wop-cli/wop/internal/catalog"
	"regexp"

	"github.com/wop-cli/wop/internal/config"
	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/lintcache"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/spec"
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
	Patterns map[string][]string
	Catalog  string // the catalog's Key: the state of the other packs
	Severity map[string]diag.Severity
	Ignores  map[string][]config.Glob
	Spec     spec.Tree // the tree asked for (auto: decided by the contents)
	Contents lintcache.Contents
}

type ruleKey struct {
	ID       string
	Severity diag.Severity
}

// cacheKey digests pk's inputs: its place and contents (as lintcache.Digest
// read them) and the options.
func cacheKey(pk *pack.Pack, opt Options, place Place, contents lintcache.Contents) (string, error) {
	in := cacheInputs{
		Build:    opt.CacheSalt,
		Display:  pk.Display,
		Place:    place,
		Limits:   pk.Limits(),
		Profile:  opt.Profile,
		Patterns: patternStrings(opt.Patterns),
		Catalog:  catalogKey(opt.Catalog),
		Severity: opt.Severities,
		Ignores:  opt.Ignores,
		Spec:     opt.Spec,
		Contents: contents,
	}
	for _, r := range All() {
		in.Rules = append(in.Rules, ruleKey{r.ID, r.Severity})
	}
	return lintcache.Key(in)
}

// patternStrings is the configured patterns as text, for the key.
func patternStrings(ps map[string][]*regexp.Regexp) map[string][]string {
	out := map[string][]string{}
	for id, res := range ps {
		for _, re := range res {
			out[id] = append(out[id], re.String())
		}
	}
	return out
}

func catalogKey(c *catalog.Catalog) string {
	if c == nil {
		return ""
	}
	return c.Key()
}
