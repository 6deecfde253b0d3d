package lint

import (
	"errors"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/wop-cli/wop/internal/catalog"

	"github.com/wop-cli/wop/internal/agf"
	"github.com/wop-cli/wop/internal/config"
	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/lintcache"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/schema"
	"github.com/wop-cli/wop/internal/spec"
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
	Catalog *catalog.Catalog
	// Severities overrides rules' default severities; Off drops a rule.
	Severities map[string]diag.Severity
	// Patterns replace, per rule, the default patterns of rules that match
	// text (text-internal-reference).
	Patterns map[string][]*regexp.Regexp
	// Ignores lists, per rule, globs of files whose findings are dropped,
	// matched against the path as printed and relative to the pack root.
	Ignores map[string][]config.Glob
	// Cache, when its Dir is set, skips packs whose inputs are unchanged
	// since a previous run. CacheSalt must change whenever the rules may
	// (the wop build).
	Cache     lintcache.Cache
	CacheSalt string
	// Spec is the spec tree to judge packs by: spec.Auto (or "") picks each
	// pack's tree from its engine range, as the registry does.
	Spec spec.Tree

	siblings *siblingMemo // set by RunAll for the packs of one run
	rules    Rules        // set by RunAll: the registry, built once per run
}

// Run lints one pack and returns its findings, sorted.
func Run(pk *pack.Pack, opt Options) ([]diag.Diagnostic, error) {
	place, err := placeOf(pk, opt.siblings)
	if err != nil {
		return nil, err
	}
	return run(pk, opt, place)
}

// run lints pk at a known place (RunCached finds it once for the key and
// the rules alike).
func run(pk *pack.Pack, opt Options, place Place) ([]diag.Diagnostic, error) {
	schemas, err := schema.Default()
	if err != nil {
		return nil, err
	}
	if opt.Profile.SchemaBase == "" {
		opt.Profile.SchemaBase = DefaultSchemaBase
	}
	var diags []diag.Diagnostic
	p := &Pass{Pack: pk, Schemas: schemas, Profile: opt.Profile, Catalog: opt.Catalog, Place: place, patterns: opt.Patterns, diags: &diags, json: map[string]*jsonFile{}, files: map[string]fileRead{}}
	doc, _, err := p.JSON(pack.ManifestName)
	if err == nil {
		p.Manifest = doc
	}
	p.Spec = opt.Spec.Resolve(p.Root())
	rules := opt.rules
	if rules == nil {
		rules = All()
	}
	for _, r := range rules {
		if r.Check == nil || (p.Manifest == nil && !r.Raw) {
			continue
		}
		if !opt.Runs(r) {
			continue
		}
		p.rule = r
		r.Check(p)
	}
	agfDiags, err := lintAgentFormat(p, opt.Severities)
	if err != nil {
		return nil, err
	}
	diags = append(diags, agfDiags...)
	diags = applyConfig(pk, diags, opt)
	markFixable(p, diags, rules)
	return diag.Sort(diags), nil
}

// lintAgentFormat lints the pack's *.agf.yaml files (and the sub-agent
// files they pull in) with the AgentFormat rules.
func lintAgentFormat(p *Pass, severities map[string]diag.Severity) ([]diag.Diagnostic, error) {
	var names []string
	for _, f := range p.Pack.Files {
		if agf.IsFile(f.Name) && f.Mode.IsRegular() {
			names = append(names, f.Name)
		}
	}
	if len(names) == 0 {
		return nil, nil
	}
	return AgentFormat(names, agf.Source{Read: p.ReadFile, Display: p.Pack.Path, Root: "."}, AgentFormatOptions{Severities: severities, InPack: true})
}

// applyConfig raises or lowers severities and drops ignored findings.
func applyConfig(pk *pack.Pack, diags []diag.Diagnostic, opt Options) []diag.Diagnostic {
	for i, d := range diags {
		if sev, ok := opt.Severities[d.Rule]; ok && d.Severity != sev {
			diags[i].Severity = sev
		}
	}
	diags, _ = Ignore(pk, diags, opt.Ignores)
	return diags
}

// Ignore returns ds without the findings ignores (Options.Ignores) match,
// and how many it dropped; ds itself is not changed.
func Ignore(pk *pack.Pack, ds []diag.Diagnostic, ignores map[string][]config.Glob) ([]diag.Diagnostic, int) {
	if len(ignores) == 0 {
		return ds, 0
	}
	out := make([]diag.Diagnostic, 0, len(ds))
	for _, d := range ds {
		if !ignored(pk, d, ignores[d.Rule]) {
			out = append(out, d)
		}
	}
	return out, len(ds) - len(out)
}

func ignored(pk *pack.Pack, d diag.Diagnostic, globs []config.Glob) bool {
	rel := strings.TrimPrefix(d.File, pk.Path(""))
	for _, g := range globs {
		if g.Match(d.File) || g.Match(rel) {
			return true
		}
	}
	return false
}

// Job is one pack to lint with its options (each pack may find its own
// .wop.yaml).
type Job struct {
	Path string
	Opt  Options
}

// Result is the outcome of linting one pack.
type Result struct {
	Path  string
	Diags []diag.Diagnostic
	// Ignored counts the findings the configuration's ignore globs
	// dropped (a rule set off is not run, so not counted).
	Ignored int
	Err     error // the pack could not be loaded
}

// RunAll loads and lints packs concurrently, returning results in the order
// of jobs. A worker per CPU takes the jobs in turn: a goroutine per pack
// grew a fresh stack through lint's recursion every time (4% of linting a
// folder of packs).
func RunAll(jobs []Job, load func(Job) (*pack.Pack, error)) []Result {
	results := make([]Result, len(jobs))
	siblings, rules := newSiblingMemo(), All()
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(jobs)) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(jobs); i = int(next.Add(1) - 1) {
				results[i] = runJob(jobs[i], load, siblings, rules)
			}
		})
	}
	wg.Wait()
	return results
}

// runJob loads and lints one job's pack.
func runJob(job Job, load func(Job) (*pack.Pack, error), siblings *siblingMemo, rules Rules) Result {
	r := Result{Path: job.Path}
	pk, err := load(job)
	if err != nil {
		r.Err = err
		return r
	}
	opt := job.Opt
	opt.siblings, opt.rules = siblings, rules
	r.Diags, r.Ignored, r.Err = RunCounted(pk, opt)
	return r
}

// RunCounted is RunCached with opt.Ignores applied after the cache, so the
// summary can say how many findings they dropped.
func RunCounted(pk *pack.Pack, opt Options) (ds []diag.Diagnostic, ignored int, err error) {
	ignores := opt.Ignores
	opt.Ignores = nil
	ds, err = RunCached(pk, opt)
	ds, ignored = Ignore(pk, ds, ignores)
	return ds, ignored, err
}

// parseError returns err as a parser error, if it is one.
func parseError(err error) (*jsonpos.Error, bool) {
	var pe *jsonpos.Error
	ok := errors.As(err, &pe)
	return pe, ok
}

// RunCached lints pk unless opt.Cache holds the result for exactly its
// inputs (see cacheInputs). A cache that cannot be read or written only
// costs speed, never correctness: any doubt lints again.
func RunCached(pk *pack.Pack, opt Options) ([]diag.Diagnostic, error) {
	if opt.Cache.Dir == "" {
		return Run(pk, opt)
	}
	place, err := placeOf(pk, opt.siblings)
	if err != nil {
		return nil, err
	}
	stamp := lintcache.StampOf(pk)
	contents, err := lintcache.Digest(pk)
	if err != nil {
		return run(pk, opt, place)
	}
	key, err := cacheKey(pk, opt, place, contents)
	if err != nil {
		return run(pk, opt, place)
	}
	if ds, ok := opt.Cache.Load(key); ok {
		return ds, nil
	}
	ds, err := run(pk, opt, place)
	if err != nil {
		return ds, err
	}
	// A file edited while it was digested or linted leaves findings that
	// match neither version: store them only if no file's size, type or
	// modification time moved since before the digest.
	if slices.Equal(lintcache.StampOf(pk), stamp) {
		opt.Cache.Store(key, ds)
	}
	return ds, nil
}

// Runs says whether a run with these options runs rule r: not switched off,
// and an opt-in rule only when the configuration names it. Readers of a
// rule's findings made elsewhere (the chain drawings) keep what lint would.
func (o Options) Runs(r *Rule) bool {
	sev, set := o.Severities[r.ID]
	return !(set && sev == diag.Off) && (!r.OptIn || set)
}
