package lsp

import (
	"context"
	"os"
	"path/filepath"
	"sync"

	"github.com/wop-cli/wop/internal/catalog"
	"github.com/wop-cli/wop/internal/lint"
	"github.com/wop-cli/wop/internal/lintrun"
	"github.com/wop-cli/wop/internal/pack"
)

// packCache is what the server remembers between requests, so that hover,
// completion, definition and code actions neither search for nor parse a
// .wop.yaml, never walk up the disk for a file's pack, and never wait for
// a lint run in progress. Each entry is dropped by the change that can
// alter it, and a result computed across such a change is not kept (gen).
// Lint runs do not read it: they find settings as `wop pack lint` does.
type packCache struct {
	mu  sync.Mutex
	gen uint64 // counts invalidations
	// units holds each file's unit: pack.Owner walks up the disk, and
	// every open document was walked on every change. A pack.json
	// appearing or disappearing on disk drops them all.
	units map[string]unitEntry
	// settings holds each pack's settings (or why they cannot be made),
	// by pack directory, until a configuration file they may come from
	// changes: its buffer, or on disk.
	settings map[string]settingsEntry
	// catalogs holds the catalog each pack is judged against, as the last
	// lint run of the pack (or the first request) opened it.
	catalogs map[string]*catalog.Catalog
}

type unitEntry struct {
	u  unit
	ok bool
}

type settingsEntry struct {
	s   *lintrun.Settings
	err error
}

func newPackCache() *packCache {
	return &packCache{units: map[string]unitEntry{}, settings: map[string]settingsEntry{}, catalogs: map[string]*catalog.Catalog{}}
}

// unitOf is the unit a file belongs to (see unitOf), remembered.
func (s *Server) unitOf(path string) (unit, bool) {
	e := remember(s.cache, s.cache.units, path, func() (e unitEntry) {
		e.u, e.ok = unitOf(path)
		return e
	})
	return e.u, e.ok
}

// settingsFor is the settings of the pack in dir, with the open buffers
// standing for their files (a .wop.yaml never saved included), remembered.
func (s *Server) settingsFor(dir string) (*lintrun.Settings, error) {
	e := remember(s.cache, s.cache.settings, dir, func() (e settingsEntry) {
		e.s, e.err = lintrun.SettingsFor(s.env, "", dir, lint.Options{}, lintrun.NewSettingsMemo(), s.overlay())
		return e
	})
	return e.s, e.err
}

// remember is m[key], made by mk (outside c.mu: it may read the disk) when
// absent, and kept unless the cache was invalidated meanwhile.
func remember[V any](c *packCache, m map[string]V, key string, mk func() V) V {
	c.mu.Lock()
	v, hit := m[key]
	gen := c.gen
	c.mu.Unlock()
	if hit {
		return v
	}
	v = mk()
	c.mu.Lock()
	if c.gen == gen {
		m[key] = v
	}
	c.mu.Unlock()
	return v
}

// catalogFor is the catalog lint judges the pack in dir against: the one
// its last lint run used. Before any run it is opened here, unless a run
// holds the catalogs (then nil: the run in progress records it). Nil too
// when the pack has none or it cannot be opened (the diagnostics say why).
func (s *Server) catalogFor(dir string) *catalog.Catalog {
	c := s.cache
	c.mu.Lock()
	cat, hit := c.catalogs[dir]
	c.mu.Unlock()
	if hit || !s.lintMu.TryLock() {
		return cat
	}
	defer s.lintMu.Unlock()
	return s.recordCatalog(dir)
}

// recordCatalog opens the catalog of the pack in dir and remembers it
// (s.lintMu held: the loader is the lint runs').
func (s *Server) recordCatalog(dir string) *catalog.Catalog {
	c := s.cache
	c.mu.Lock()
	gen := c.gen
	c.mu.Unlock()
	settings, err := s.settingsFor(dir)
	if err != nil {
		return nil
	}
	cat, err := s.loader.ForPack(context.Background(), s.env, settings.Catalogs, dir)
	if err == nil {
		cat, err = s.loader.WithHost(cat, settings.Host, "configured")
	}
	if err != nil {
		return nil
	}
	c.mu.Lock()
	if c.gen == gen {
		c.catalogs[dir] = cat
	}
	c.mu.Unlock()
	return cat
}

// fileChanged drops what a change to path's contents (its buffer, or on
// disk) may decide. A configuration file decides the settings, and so the
// catalog, of every pack below its directory when it is a .wop.yaml, and
// of every pack it was applied to whatever its name (WOP_CONFIG may name
// any file); settings that could not be made are made again (which file
// failed is not kept).
func (c *packCache) fileChanged(path string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	applied := func(e settingsEntry) bool { return e.err != nil || e.s.ConfigPath == path }
	below := func(string) bool { return false }
	if isConfig(path) {
		below = func(p string) bool { return under(p, filepath.Dir(path)) }
		c.gen++ // a pack's settings being made now may have read it
	}
	for p, e := range c.settings {
		if below(p) || applied(e) {
			delete(c.settings, p)
			delete(c.catalogs, p)
			c.gen++
		}
	}
}

// diskChanged drops what a file written, created or deleted on disk may
// alter: every file's unit when it is a pack.json; and when it is not a
// file (a directory created or removed, a file deleted) every unit, and
// the settings of the packs below its parent (it may have held or hidden
// a .wop.yaml, or be a repository's .git, where the search stops).
func (c *packCache) diskChanged(path string) {
	info, err := os.Stat(path)
	notFile := err != nil || !info.Mode().IsRegular()
	if filepath.Base(path) != pack.ManifestName && !notFile {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	clear(c.units)
	if !notFile {
		return
	}
	parent := filepath.Dir(path)
	for p := range c.settings {
		if under(p, parent) {
			delete(c.settings, p)
			delete(c.catalogs, p)
		}
	}
}
