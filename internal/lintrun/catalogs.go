package lintrun

import (
	"context"
	"fmt"

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
	// Open holds the catalogs opened, by source.
	Open map[string]*catalog.Catalog
	// checkouts remembers which directories sit in a registry checkout,
	// made on first use: the packs of a folder share their ancestors.
	checkouts *catalog.CheckoutFinder
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
// configuration's, else its registry checkout's, else none.
func (l *Catalogs) ForPack(ctx context.Context, env *Env, configured, packPath string) (*catalog.Catalog, error) {
	if configured != "" {
		return l.Load(ctx, env, configured, "configured")
	}
	if l.checkouts == nil {
		l.checkouts = catalog.NewCheckoutFinder()
	}
	if root := l.checkouts.Find(packPath); root != "" {
		return l.Load(ctx, env, root, "registry checkout")
	}
	return nil, nil
}

// Load opens the catalog at src (a path or URL) unless it is open; why
// says in messages where src came from.
func (l *Catalogs) Load(ctx context.Context, env *Env, src, why string) (*catalog.Catalog, error) {
	if c, ok := l.Open[src]; ok {
		return c, nil
	}
	opt := catalog.Options{CacheDir: env.CacheDir, Offline: l.Offline, Now: env.Now}
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
		if len(c.Packs) == 1 {
			packs = "pack"
		}
		fmt.Fprintf(env.ErrOut, "catalog: %s %s (%d %s)\n", why, src, len(c.Packs), packs)
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
