package lint

import (
	"errors"
	"fmt"
	"runtime"
	"sync"

	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/lintcache"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/schema"
)

// DefaultSchemaBase is where the public registry serves pack schemas; a
// pack schema's $id must live under it.
const DefaultSchemaBase = "https://packs.openwop.dev"

// Profile describes the registry the pack is meant for.
type Profile struct {
	// Public is set when configuration names the public registry as the
	// target; unset, wop does not assume where the pack goes.
	Public     bool
	SchemaBase string // prefix of pack schema $ids, without trailing slash
}

// Options configure a lint run.
type Options struct {
	Profile Profile
	Catalog *PackCatalog
	// Cache, when its Dir is set, skips packs whose files and options are
	// unchanged since a previous run. CacheSalt must change whenever the
	// rules may (the wop build).
	Cache     lintcache.Cache
	CacheSalt string
}

// Run lints one pack and returns its findings, sorted.
func Run(pk *pack.Pack, opt Options) ([]diag.Diagnostic, error) {
	schemas, err := schema.Default()
	if err != nil {
		return nil, err
	}
	if opt.Profile.SchemaBase == "" {
		opt.Profile.SchemaBase = DefaultSchemaBase
	}
	var diags []diag.Diagnostic
	p := &Pass{Pack: pk, Schemas: schemas, Profile: opt.Profile, Catalog: opt.Catalog, diags: &diags, json: map[string]*jsonFile{}}
	doc, _, err := p.JSON(pack.ManifestName)
	if err == nil {
		p.Manifest = doc
	}
	for _, r := range All() {
		if r.Check == nil || (p.Manifest == nil && !r.Raw) {
			continue
		}
		p.rule = r
		r.Check(p)
	}
	return diag.Sort(diags), nil
}

// Result is the outcome of linting one pack.
type Result struct {
	Path  string
	Diags []diag.Diagnostic
	Err   error // the pack could not be loaded
}

// RunAll loads and lints the packs at paths concurrently, returning results
// in the order of paths.
func RunAll(paths []string, opt Options, load func(string) (*pack.Pack, error)) []Result {
	results := make([]Result, len(paths))
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i, path := range paths {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			results[i].Path = path
			pk, err := load(path)
			if err != nil {
				results[i].Err = err
				return
			}
			results[i].Diags, results[i].Err = RunCached(pk, opt)
		}()
	}
	wg.Wait()
	return results
}

// parseError returns err as a parser error, if it is one.
func parseError(err error) (*jsonpos.Error, bool) {
	var pe *jsonpos.Error
	ok := errors.As(err, &pe)
	return pe, ok
}

// RunCached lints pk unless opt.Cache holds the result for its exact files.
// Cache failures only cost speed, never correctness, so they are ignored.
func RunCached(pk *pack.Pack, opt Options) ([]diag.Diagnostic, error) {
	if opt.Cache.Dir == "" {
		return Run(pk, opt)
	}
	salt := fmt.Sprintf("%s|%+v", opt.CacheSalt, opt.Profile)
	key, err := lintcache.Key(pk, salt)
	if err != nil {
		return Run(pk, opt)
	}
	if ds, ok := opt.Cache.Load(pk, key); ok {
		return ds, nil
	}
	ds, err := Run(pk, opt)
	if err == nil {
		_ = opt.Cache.Store(pk, key, ds)
	}
	return ds, err
}
