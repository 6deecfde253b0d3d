package lint

import (
	"errors"
	"path"
	"regexp"
	"strings"

	"github.com/wop-cli/wop/internal/catalog"
	"github.com/wop-cli/wop/internal/jsonpos"

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
	Catalog  string // the catalog's StateFor this pack: the state of the other packs it uses
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
	state, err := catalogState(pk, opt.Catalog)
	if err != nil {
		return "", err
	}
	in := cacheInputs{
		Build:    opt.CacheSalt,
		Display:  pk.Display,
		Place:    place,
		Limits:   pk.Limits(),
		Profile:  opt.Profile,
		Patterns: patternStrings(opt.Patterns),
		Catalog:  state,
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

// errCatalogState: the state of the other packs a result depends on is
// unknown, so the result is not cached.
var errCatalogState = errors.New("lint cache: the catalog's state is unknown")

// catalogState is the state of what pk's lint can read from the catalog:
// its facts, and the files of the packs defining the ids pk's JSON files
// name (a chain's node typeIds, a v2 "typeId@version" pin without the pin).
// Every catalog question a rule asks about a schema is about such an id,
// so the packs not named are no input.
func catalogState(pk *pack.Pack, c *catalog.Catalog) (string, error) {
	if c == nil {
		return "", nil
	}
	state := c.StateFor(stringsIn(pk))
	if state == "" {
		return "", errCatalogState
	}
	return state, nil
}

// stringsIn returns every string value of pk's JSON files, and each one's
// part before an "@". It scans the files' strings without building their
// trees (the key is computed before every cached run, and the rules parse
// the files only on a miss); a malformed file may name a few strings the
// rules never read, which can only make the key stricter.
func stringsIn(pk *pack.Pack) []string {
	var out []string
	add := func(s string) {
		out = append(out, s)
		if id, _, ok := strings.Cut(s, "@"); ok {
			out = append(out, id)
		}
	}
	for _, f := range pk.Files {
		if !f.Mode.IsRegular() || path.Ext(f.Name) != ".json" {
			continue
		}
		raw, err := pk.ReadFile(f.Name)
		if err != nil {
			continue
		}
		jsonpos.StringValues(raw, add)
	}
	return out
}
