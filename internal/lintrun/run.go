package lintrun

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/wop-cli/wop/hosts"
	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/lint"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/report"
	"github.com/wop-cli/wop/internal/spec"
	"github.com/wop-cli/wop/internal/tarball"
)

// Options are the inputs of one run: what `wop pack lint`'s flags say,
// and the editor's unsaved buffers.
type Options struct {
	// Paths are packs (directories, pack.json files, archives) or folders
	// of packs; with Changed, changed files whose packs are linted.
	Paths   []string
	Changed bool
	// StagedDeletions (with Changed) adds the files the git index deletes
	// or renames away, which pre-commit never passes, and renames' new names.
	StagedDeletions bool
	// Config names one configuration file for every pack; "" finds each
	// pack's own (WOP_CONFIG, or .wop.yaml upward).
	Config string
	// Catalogs judge every pack (--catalog, merged into one); none: each
	// pack's configured catalog sources or registry checkout.
	Catalogs []string
	// Host is a host profile file (--host) for every pack; "" takes each
	// pack's configured host:, if any.
	Host string
	// Profile is the rule profile (--profile); "" takes each pack's
	// configured profile:, else the rules' defaults.
	Profile string
	Spec    spec.Tree
	Offline bool
	NoCache bool
	Info    bool // keep info-level findings
	// Baseline accepts the findings it lists: only new ones are returned.
	Baseline string
	Fix      FixMode
	// Announce says on ErrOut which catalog is used and how many findings
	// the baseline accepted (the text report's companions).
	Announce bool
	// Specs records in Result.Packs the spec generation of each pack (the
	// json and sarif reports name it).
	Specs bool
	// Overlay holds unsaved contents by absolute path: they are linted
	// instead of the file on disk (and the result cache is not used).
	Overlay map[string][]byte
	// Against, when set, adds the release verdict (--against) for the
	// packs linted.
	Against func(ctx context.Context, targets []Target, jobs []lint.Job, limits []tarball.Limits) ([]diag.Diagnostic, error)
	// Loader keeps catalogs open across runs (a language server); nil
	// opens them for this run.
	Loader *Catalogs
	// Files keeps pack files' bytes across runs (a language server); nil
	// reads them from disk.
	Files *FileCache
}

// Result is a run's verdict, ready for a report.
type Result struct {
	Targets  []Target
	Diags    []diag.Diagnostic // sorted; filtered by Info and Baseline
	LoadErrs []error           // packs that could not be read, each named
	Packs    []report.PackSpec // each linted pack (with its spec under Specs)
	// Linted counts the packs and loose AgentFormat files linted.
	Linted int
	// HiddenInfo counts the info findings left out (Options.Info unset),
	// so the summary can say they exist and how to see them.
	HiddenInfo int
	// Ignored counts the findings the packs' configurations' ignore lists
	// dropped ("2 ignored by .wop.yaml").
	Ignored    int
	Incomplete *report.Incomplete
	// ConfigWarnings are the configurations' entries that lower or ignore
	// an enforced rule, which hold for lint only: warned of on stderr as
	// they are read, and shown by the editor at each entry.
	ConfigWarnings []diag.Diagnostic
}

// plan is a run's packs with the options and limits each is linted with.
type plan struct {
	targets  []Target
	looseAGF []string
	jobs     []lint.Job
	limits   []tarball.Limits
	base     lint.Options
	loader   *Catalogs
	// configWarnings are the configurations' entries that hold for lint
	// only (warnOverrides), already printed.
	configWarnings []diag.Diagnostic
	// unstaged are files on disk the commit lacks (absolute; a folder
	// ends in a separator): removed from git but left on disk, or never
	// added. The packs are linted without them.
	unstaged []string
}

// Run lints what o names and returns the verdict. With FixDiff the patch
// is printed and the verdict is on the text the fixes would leave, so
// the findings no fix takes are still reported.
func Run(ctx context.Context, env *Env, o Options) (*Result, error) {
	p, err := prepare(ctx, env, o)
	if o.Fix != FixNone {
		p, o, err = fixConfigs(ctx, env, o, p, err)
	}
	if err != nil {
		return nil, err
	}
	if o.Fix != FixNone {
		fixed, err := applyFixes(env, p.targets, p.jobs, p.limits, o.Fix == FixWrite)
		if err != nil {
			return nil, err
		}
		if len(fixed) > 0 {
			o.Overlay = withOverlay(o.Overlay, fixed)
			for i := range p.jobs { // the result cache is for files on disk, not the fixed text
				p.jobs[i].Opt.Cache.Dir = ""
			}
		}
	}
	res := p.lint(ctx, o)
	res.ConfigWarnings = p.configWarnings
	p.base.Cache.Trim() // at most once a day; otherwise one stat
	agfDiags, err := lintLooseAgentFormat(env, p.looseAGF, o.Overlay)
	if err != nil {
		return nil, err
	}
	res.Diags = append(res.Diags, agfDiags...)
	if o.Against != nil {
		verdict, err := o.Against(ctx, p.targets, p.jobs, p.limits)
		if err != nil {
			return nil, err
		}
		res.Diags = append(res.Diags, verdict...)
	}
	if !o.Info {
		res.Diags, res.HiddenInfo = diag.WithoutInfo(res.Diags)
	}
	res.Diags = diag.Sort(res.Diags)
	if res.Diags, err = applyBaseline(env, o, res.Diags); err != nil {
		return nil, err
	}
	res.Linted = len(p.targets) - len(res.LoadErrs) + len(p.looseAGF)
	res.Incomplete = p.loader.Incomplete()
	return res, nil
}

// prepare finds the packs, and each one's settings and catalog.
func prepare(ctx context.Context, env *Env, o Options) (*plan, error) {
	if _, err := lint.FindRuleProfile(o.Profile); err != nil {
		return nil, inputf("--profile: %v", err)
	}
	p := &plan{loader: o.Loader}
	if p.loader == nil {
		// This run's own: only lint reads it, through methods, so a
		// checkout's facts are read only if a result is not cached.
		p.loader = NewCatalogs(o.Offline, o.Announce)
		p.loader.Lazy = true
	}
	var err error
	if o.Changed {
		p.targets, p.looseAGF, p.unstaged, err = changedTargets(ctx, env, o)
	} else {
		p.targets, err = ExpandTargets(env, o.Paths)
	}
	if err != nil {
		return nil, err
	}
	p.base = LintOptions(env, o.NoCache || len(o.Overlay) > 0)
	p.base.Spec = o.Spec
	if len(o.Catalogs) > 0 {
		srcs := make([]string, len(o.Catalogs))
		for i, src := range o.Catalogs {
			srcs[i] = CatalogSrc(env, src)
		}
		if p.base.Catalog, err = p.loader.LoadAll(ctx, env, srcs, "--catalog"); err != nil {
			return nil, err
		}
	}
	return p, p.makeJobs(ctx, env, o)
}

// makeJobs gives each target the options and limits of its configuration.
func (p *plan) makeJobs(ctx context.Context, env *Env, o Options) error {
	p.jobs = make([]lint.Job, len(p.targets))
	p.limits = make([]tarball.Limits, len(p.targets))
	seen, warned := NewSettingsMemo(), map[string]bool{}
	seen.absent = p.unstaged
	for i, t := range p.targets {
		s, err := SettingsFor(env, o.Config, t.Path, p.base, seen, o.Overlay)
		if err != nil {
			return err
		}
		p.configWarnings = append(p.configWarnings, warnOverrides(env, s, warned)...)
		p.jobs[i], p.limits[i] = lint.Job{Path: t.Path, Opt: s.Opt}, s.Limits
		if p.base.Catalog == nil {
			if p.jobs[i].Opt.Catalog, err = p.loader.ForPack(ctx, env, s.Catalogs, t.Path); err != nil {
				return err
			}
		}
		host, why := s.Host, "configured"
		if o.Host != "" {
			host, why = o.Host, "--host"
			if hosts.Named(o.Host) == nil {
				host = env.Abs(o.Host)
			}
		}
		if p.jobs[i].Opt.Catalog, err = p.loader.WithHost(p.jobs[i].Opt.Catalog, host, why); err != nil {
			return err
		}
		profile, err := lint.FindRuleProfile(cmp.Or(o.Profile, s.Profile)) // the configuration's was checked as it was read
		if err != nil {
			return err
		}
		p.jobs[i].Opt.Severities = lint.WithProfile(profile, s.Opt.Severities)
	}
	return nil
}

// lint runs the rules over every pack, concurrently.
func (p *plan) lint(ctx context.Context, o Options) *Result {
	trees := make([]spec.Tree, len(p.targets)) // each pack's, for the json and sarif reports
	load := func(j lint.Job) (*pack.Pack, error) {
		if err := ctx.Err(); err != nil { // Ctrl-C: no more packs
			return nil, err
		}
		i := slices.IndexFunc(p.targets, func(t Target) bool { return t.Path == j.Path })
		pk, err := pack.Load(j.Path, p.limits[i])
		if err != nil {
			return nil, err
		}
		pk.Display = pack.DisplayName(p.targets[i].Display)
		overlay := overlayIn(pk.Dir, o.Overlay)
		if o.Files != nil {
			overlay = o.Files.fill(pk, overlay)
		}
		pk.Overlay(overlay)
		pk.Remove(slices.Collect(maps.Keys(filesIn(pk.Dir, p.unstaged))))
		if o.Specs { // the reports that name it: reading the manifest again was 5% of a folder's text lint
			trees[i] = treeOf(pk, j.Opt.Spec)
		}
		return pk, nil
	}
	res := &Result{Targets: p.targets}
	for i, r := range lint.RunAll(p.jobs, load) {
		if r.Err != nil {
			res.LoadErrs = append(res.LoadErrs, fmt.Errorf("%s: %w", p.targets[i].Display, WithoutPath(r.Err)))
			continue
		}
		res.Diags = append(res.Diags, r.Diags...)
		res.Ignored += r.Ignored
		res.Packs = append(res.Packs, report.PackSpec{Path: p.targets[i].Display, Spec: string(trees[i])})
	}
	return res
}

// withOverlay is overlay with files laid over it, in a new map: the
// caller's Options keep theirs.
func withOverlay(overlay, files map[string][]byte) map[string][]byte {
	out := make(map[string][]byte, len(overlay)+len(files))
	maps.Copy(out, overlay)
	maps.Copy(out, files)
	return out
}

// overlayIn is the part of overlay inside dir, by slash name from dir.
func overlayIn(dir string, overlay map[string][]byte) map[string][]byte {
	if dir == "" || len(overlay) == 0 {
		return nil
	}
	out := map[string][]byte{}
	for name, path := range filesIn(dir, slices.Collect(maps.Keys(overlay))) {
		out[name] = overlay[path]
	}
	return out
}

// filesIn maps the slash name from dir of each of paths (absolute) inside
// dir to its path; a path ending in a separator (a folder) keeps a
// trailing slash.
func filesIn(dir string, paths []string) map[string]string {
	out := map[string]string{}
	for _, path := range paths {
		if rel, err := filepath.Rel(dir, path); err == nil && rel != "." && filepath.IsLocal(rel) {
			name := filepath.ToSlash(rel)
			if strings.HasSuffix(path, string(filepath.Separator)) {
				name += "/"
			}
			out[name] = path
		}
	}
	return out
}

// applyBaseline drops the findings o.Baseline accepts.
func applyBaseline(env *Env, o Options, diags []diag.Diagnostic) ([]diag.Diagnostic, error) {
	if o.Baseline == "" {
		return diags, nil
	}
	b, err := lint.LoadBaseline(env.Abs(o.Baseline))
	if err != nil {
		return nil, inputf("--baseline: %v", WithoutPath(err))
	}
	for _, w := range b.Upgrade(lint.All()) {
		fmt.Fprintf(env.ErrOut, "--baseline %s: warning: %s\n", o.Baseline, w)
	}
	diags, n := b.Filter(diags)
	if n > 0 && o.Announce {
		fmt.Fprintf(env.ErrOut, "%d findings accepted by the baseline %s\n", n, o.Baseline)
	}
	return diags, nil
}

// treeOf is the spec generation lint judges pk by: the one asked for, or
// under auto the one its engine range picks (as lint's pass does). A
// manifest that does not parse is judged as v1.
func treeOf(pk *pack.Pack, asked spec.Tree) spec.Tree {
	if asked == spec.V1 || asked == spec.V2 {
		return asked
	}
	raw, err := pk.ReadFile(pack.ManifestName)
	if err != nil {
		return spec.V1
	}
	doc, err := jsonpos.Parse(raw)
	if err != nil {
		return spec.V1
	}
	return spec.TreeOf(doc.Root)
}
