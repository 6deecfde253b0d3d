package packcmd

import (
	"context"
	"fmt"

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
}

// catalogSrc makes a catalog argument absolute unless it is a URL.
func catalogSrc(env *cli.Env, src string) string {
	if catalog.IsURL(src) {
		return src
	}
	return env.Abs(src)
}

// forPack returns the catalog for a pack that --catalog does not name: its
// configuration's, else its registry checkout's, else none.
func (l *catalogLoader) forPack(configured, packPath string) (*catalog.Catalog, error) {
	if configured != "" {
		return l.load(configured, "configured")
	}
	if l.checkouts == nil {
		l.checkouts = catalog.NewCheckoutFinder()
	}
	if root := l.checkouts.Find(packPath); root != "" {
		return l.load(root, "registry checkout")
	}
	return nil, nil
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
