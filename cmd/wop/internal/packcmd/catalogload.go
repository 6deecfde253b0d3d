package packcmd

import (
	"context"
	"fmt"
	"strings"

	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/catalog"
	"github.com/wop-cli/wop/internal/registry"
	"github.com/wop-cli/wop/internal/report"
)

// catalogLoader opens the catalogs a command uses, each once: --catalog,
// a configuration's catalog:, or the registry checkout a pack sits in.
type catalogLoader struct {
	ctx      context.Context
	env      *cli.Env
	offline  bool
	announce bool // say on ErrOut which catalog is used and how current it is
	open     map[string]*catalog.Catalog
	// checkouts remembers which directories sit in a registry checkout,
	// made on first use: the packs of a folder share their ancestors.
	checkouts *catalog.CheckoutFinder
	merged    map[string]*catalog.Catalog // several sources, by their list
	hosted    map[any]*catalog.Catalog    // a catalog with a host profile
	hosts     map[string]*catalog.Host    // host profiles read, by path
}

// catalogSrc makes a catalog argument absolute unless it is a URL.
func catalogSrc(env *cli.Env, src string) string {
	if catalog.IsURL(src) {
		return src
	}
	return env.Abs(src)
}

// forPack returns the catalog for a pack that --catalog does not name: its
// configuration's sources (merged), else its registry checkout's, else none.
func (l *catalogLoader) forPack(configured []string, packPath string) (*catalog.Catalog, error) {
	if len(configured) > 0 {
		return l.loadAll(configured, "configured")
	}
	if l.checkouts == nil {
		l.checkouts = catalog.NewCheckoutFinder()
	}
	if root := l.checkouts.Find(packPath); root != "" {
		return l.load(root, "registry checkout")
	}
	return nil, nil
}

// loadAll opens each source and merges them, once per list of sources.
func (l *catalogLoader) loadAll(srcs []string, why string) (*catalog.Catalog, error) {
	if len(srcs) == 1 {
		return l.load(srcs[0], why)
	}
	key := strings.Join(srcs, "\x00")
	if c, ok := l.merged[key]; ok {
		return c, nil
	}
	var cs []*catalog.Catalog
	for _, src := range srcs {
		c, err := l.load(src, why)
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

// withHost returns c with the host profile at path merged in, once per
// catalog and host ("" path: c as it is).
func (l *catalogLoader) withHost(c *catalog.Catalog, path, why string) (*catalog.Catalog, error) {
	if path == "" {
		return c, nil
	}
	type pair struct {
		c    *catalog.Catalog
		host string
	}
	if l.hosted == nil {
		l.hosted, l.hosts = map[any]*catalog.Catalog{}, map[string]*catalog.Host{}
	}
	if hc, ok := l.hosted[pair{c, path}]; ok {
		return hc, nil
	}
	h, ok := l.hosts[path]
	if !ok { // read even without a catalog: a broken profile is said at once
		var err error
		if h, err = catalog.LoadHost(path); err != nil {
			return nil, cli.Usagef("host profile (%s) %v", why, err)
		}
		l.hosts[path] = h
	}
	hc := catalog.WithHosts(c, h)
	l.hosted[pair{c, path}] = hc
	return hc, nil
}

func (l *catalogLoader) load(src, why string) (*catalog.Catalog, error) {
	if c, ok := l.open[src]; ok {
		return c, nil
	}
	opt := catalog.Options{CacheDir: l.env.CacheDir, Offline: l.offline, Now: l.env.Now}
	if catalog.IsURL(src) {
		// A catalog is public: no token goes with it.
		client, err := registry.New(registry.Options{Registry: src, UserAgent: "wop/" + l.env.Version,
			Transport: l.env.HTTPClient().Transport, MaxAttempts: 3})
		if err != nil {
			return nil, cli.Usagef("catalog (%s) %s: %v", why, src, err)
		}
		opt.Fetch = client
	}
	c, err := catalog.Open(l.ctx, src, opt)
	if err != nil {
		label := "catalog " + src
		if why != "" {
			label = fmt.Sprintf("catalog (%s) %s", why, src)
		}
		return nil, cli.Usagef("%s: %v", label, withoutPath(err))
	}
	for _, w := range c.Warnings {
		fmt.Fprintf(l.env.ErrOut, "warning: catalog %s: %s\n", src, w)
	}
	if l.announce {
		packs := "packs"
		if len(c.Packs) == 1 {
			packs = "pack"
		}
		fmt.Fprintf(l.env.ErrOut, "catalog: %s %s (%d %s)\n", why, src, len(c.Packs), packs)
	}
	l.open[src] = c
	return c, nil
}

// incomplete says, after the verdict, that a catalog left broken packs out
// (nil when none did): findings that depend on those packs are missing or
// wrong until they are fixed. The message stands alone, as json and sarif
// reports carry it without the warnings that name the files.
func (l *catalogLoader) incomplete() *report.Incomplete {
	skipped := 0
	for _, c := range l.open {
		skipped += c.Skipped
	}
	if skipped == 0 {
		return nil
	}
	return &report.Incomplete{Skipped: skipped, Message: fmt.Sprintf(
		"catalog incomplete: %d broken pack.json skipped (wop's warnings name them); what they define may be reported as unresolved", skipped)}
}
