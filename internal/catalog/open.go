package catalog

import (
	"context"
	"os"
	"path/filepath"
	"time"

	"github.com/wop-cli/wop/internal/registry"
)

// Options are what reading a registry URL needs; local catalogs ignore
// them.
type Options struct {
	CacheDir string // wop's cache root; URL catalogs keep documents under it
	Offline  bool
	Fetch    registry.Fetcher
	Now      func() time.Time
	// Lazy defers reading a folder's (or checkout's) facts to their first
	// use when its snapshot is cached: a run whose lint results are all
	// cached then never reads them (see Catalog.ready and StateFor).
	// Packs stays empty until a method asks about the facts.
	Lazy bool
}

// Open reads the catalog at src: a registry URL, a registry checkout, a
// folder of packs or an index file.
func Open(ctx context.Context, src string, o Options) (*Catalog, error) {
	dir := ""
	if o.CacheDir != "" {
		dir = filepath.Join(o.CacheDir, "catalog")
	}
	if IsURL(src) {
		return LoadURL(ctx, URLOptions{URL: src, CacheDir: dir, Offline: o.Offline, Fetch: o.Fetch, Now: o.Now})
	}
	st, err := os.Stat(src)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return LoadIndex(src)
	}
	// A folder of packs, or a registry checkout's packs/ folder.
	folder := src
	if IsCheckout(src) {
		folder = filepath.Join(src, "packs")
	}
	c := newCatalog(src)
	if err := c.addFolder(folder, dir, o.Lazy); err != nil {
		return nil, err
	}
	return c, nil
}
