package lintrun

import (
	"context"
	"fmt"
	"strings"

	"github.com/wop-cli/wop/hosts"
	"github.com/wop-cli/wop/internal/catalog"
	"github.com/wop-cli/wop/internal/registry"
	"github.com/wop-cli/wop/internal/report"
)

// Catalogs opens the catalogs a run uses, each once: --catalog, a
// configuration's catalog:, or the registry checkout a pack sits in. A
// language server keeps one across runs, so a checkout is read once.
type Catalogs struct {
	Offline  bool
	Announce bool // say on ErrOut which catalog is used and how current it is
	// Lazy opens folders and checkouts lazily (catalog.Options.Lazy): for
	// a run that only lints, whose rules ask through methods. A caller
	// that reads a catalog's Packs field must leave it unset.
	Lazy bool
	// Open holds the catalogs opened, by source.
	Open map[string]*catalog.Catalog
	// checkouts remembers which directories sit in a registry checkout,
	// made on first use: the packs of a folder share their ancestors.
	checkouts *catalog.CheckoutFinder
	merged    map[string]*catalog.Catalog    // several sources, by their list
	hosted    map[hostedKey]*catalog.Catalog // a catalog with a host profile
	hosts     map[string]*catalog.Host       // host profiles read, by path
}

// hostedKey names a catalog with a host profile merged in.
type hostedKey struct {
	c    *catalog.Catalog
	host string
}

// NewCatalogs returns a loader with nothing open.
func NewCatalogs(offline, announce bool) *Catalogs {
	return &Catalogs{Offline: offline, Announce: announce, Open: map[string]*catalog.Catalog{}}
}

// CatalogSrc makes a catalog argument absolute unless it is a URL.
func CatalogSrc(env *Env, src string) string {
	if catalog.IsURL(src) {
		return src
	}
	return env.Abs(src)
}

// ForPack returns the catalog for a pack that --catalog does not name: its
// configuration's sources (merged), else its registry checkout's, else none.
func (l *Catalogs) ForPack(ctx context.Context, env *Env, configured []string, packPath string) (*catalog.Catalog, error) {
	if len(configured) > 0 {
		return l.LoadAll(ctx, env, configured, "configured")
	}
	if l.checkouts == nil {
		l.checkouts = catalog.NewCheckoutFinder()
	}
	if root := l.checkouts.Find(packPath); root != "" {
		return l.Load(ctx, env, root, "registry checkout")
	}
	return nil, nil
}

// LoadAll opens each source and merges them into one catalog, once per
// list of sources.
func (l *Catalogs) LoadAll(ctx context.Context, env *Env, srcs []string, why string) (*catalog.Catalog, error) {
	if len(srcs) == 1 {
		return l.Load(ctx, env, srcs[0], why)
	}
	key := strings.Join(srcs, "\x00")
	if c, ok := l.merged[key]; ok {
		return c, nil
	}
	var cs []*catalog.Catalog
	for _, src := range srcs {
		c, err := l.Load(ctx, env, src, why)
		if err != nil {
			return nil, err
		}
		cs = append(cs, c)
	}
	if l.merged == nil {
		l.merged = map[string]*catalog.Catalog{}
	}
	l.merged[key] = catalog.Merge(cs...)
	return l.merged[key], nil
}

// WithHost returns c with the host profile at path merged in, once per
// catalog and host ("" path: c as it is). path may be a shipped host's
// name (hosts.Named: "openwop-app"), which wop holds itself. A profile is
// read even without a catalog, so a broken one is said at once.
func (l *Catalogs) WithHost(c *catalog.Catalog, path, why string) (*catalog.Catalog, error) {
	if path == "" {
		return c, nil
	}
	if l.hosted == nil {
		l.hosted, l.hosts = map[hostedKey]*catalog.Catalog{}, map[string]*catalog.Host{}
	}
	if hc, ok := l.hosted[hostedKey{c, path}]; ok {
		return hc, nil
	}
	h, ok := l.hosts[path]
	if !ok {
		var err error
		if h = hosts.Named(path); h == nil {
			if h, err = catalog.LoadHost(path); err != nil {
				return nil, inputf("host profile (%s) %v", why, err)
			}
		}
		l.hosts[path] = h
	}
	hc := catalog.WithHosts(c, h)
	l.hosted[hostedKey{c, path}] = hc
	return hc, nil
}

// Load opens the catalog at src (a path or URL) unless it is open; why
// says in messages where src came from.
func (l *Catalogs) Load(ctx context.Context, env *Env, src, why string) (*catalog.Catalog, error) {
	if c, ok := l.Open[src]; ok {
		return c, nil
	}
	opt := catalog.Options{CacheDir: env.CacheDir, Offline: l.Offline, Now: env.Now, Lazy: l.Lazy}
	if catalog.IsURL(src) {
		// A catalog is public: no token goes with it.
		client, err := registry.New(registry.Options{Registry: src, UserAgent: "wop/" + env.Version,
			Transport: env.HTTPClient().Transport, MaxAttempts: 3})
		if err != nil {
			return nil, inputf("catalog (%s) %s: %v", why, src, err)
		}
		opt.Fetch = client
	}
	c, err := catalog.Open(ctx, src, opt)
	if err != nil {
		label := "catalog " + src
		if why != "" {
			label = fmt.Sprintf("catalog (%s) %s", why, src)
		}
		return nil, inputf("%s: %v", label, WithoutPath(err))
	}
	for _, w := range c.Warnings {
		fmt.Fprintf(env.ErrOut, "warning: catalog %s: %s\n", src, w)
	}
	if l.Announce {
		packs := "packs"
		if c.Len() == 1 {
			packs = "pack"
		}
		fmt.Fprintf(env.ErrOut, "catalog: %s %s (%d %s)\n", why, src, c.Len(), packs)
	}
	l.Open[src] = c
	return c, nil
}

// Incomplete says, after the verdict, that a catalog left broken packs out
// (nil when none did): findings that depend on those packs are missing or
// wrong until they are fixed. The message stands alone, as json and sarif
// reports carry it without the warnings that name the files.
func (l *Catalogs) Incomplete() *report.Incomplete {
	skipped := 0
	for _, c := range l.Open {
		skipped += c.Skipped
	}
	if skipped == 0 {
		return nil
	}
	return &report.Incomplete{Skipped: skipped, Message: fmt.Sprintf(
		"catalog incomplete: %d broken pack.json skipped (wop's warnings name them); what they define may be reported as unresolved", skipped)}
}
