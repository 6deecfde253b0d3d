package catalog

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"path"
	"strings"
	"time"

	"github.com/Masterminds/semver/v3"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/registry"
)

// URLOptions configure reading a catalog from a registry URL.
type URLOptions struct {
	URL string // the registry root, e.g. https://packs.openwop.dev
	// CacheDir holds fetched documents with their validators; "" caches
	// nothing.
	CacheDir string
	// Offline reads only the cache: a document it lacks is an error.
	Offline bool
	Fetch   registry.Fetcher
	Now     func() time.Time // nil means time.Now
}

// IsURL reports whether a catalog source is a registry URL.
func IsURL(s string) bool {
	return strings.HasPrefix(s, "https://") || strings.HasPrefix(s, "http://")
}

// freshFor is how long a fetched index or discovery document is used
// without asking the registry again: lint runs back to back cost no request.
const freshFor = 10 * time.Minute

// defaultIndexPath is the registry index when discovery names none.
const defaultIndexPath = "/v1/index.json"

// LoadURL reads what a registry serves: its discovery document, its index,
// each pack's latest version manifest, and (on first use) the schemas the
// node types reference, at the URLs their $ids mirror.
func LoadURL(ctx context.Context, o URLOptions) (*Catalog, error) {
	base := strings.TrimSuffix(o.URL, "/")
	h := &registry.Cache{Dir: o.CacheDir, Offline: o.Offline, Fetch: o.Fetch, Now: o.Now}
	raw, err := h.Get(ctx, base+registry.DiscoveryPath, registry.Policy{FreshFor: freshFor})
	var tooLarge *registry.TooLargeError
	if errors.As(err, &tooLarge) {
		return nil, fmt.Errorf("%s: %w: discovery document over %d bytes", tooLarge.URL, registry.ErrUnreadable, tooLarge.Limit)
	}
	if err != nil {
		return nil, fmt.Errorf("registry discovery: %w", err)
	}
	d, err := registry.ParseDiscovery(raw)
	if err != nil {
		return nil, fmt.Errorf("%s%s: %w", base, registry.DiscoveryPath, err)
	}
	indexPath, _ := d.RawEndpoints["registryIndex"].(string)
	if indexPath == "" {
		indexPath = defaultIndexPath
	}
	if raw, err = h.Get(ctx, absolute(base, indexPath), registry.Policy{FreshFor: freshFor}); err != nil {
		return nil, fmt.Errorf("registry index: %w", err)
	}
	entries, err := parseIndex(raw)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", absolute(base, indexPath), err)
	}
	c := newCatalog(base)
	key := snapshotKey(base, raw)
	c.key = func() string { return key }
	c.facts = c.key
	if !loadSnapshot(h.Dir, key, c) {
		tmpl := d.Endpoints().VersionManifest
		for _, e := range entries {
			if err := c.addServed(ctx, h, base, tmpl, e); err != nil {
				return nil, err
			}
		}
		storeSnapshot(h.Dir, key, c)
	}
	c.sort()
	c.fetchDoc = func(p *Pack, ref string) ([]byte, error) {
		// Registries serve a pack's schemas at <base>/<name>/<version>/<file>,
		// the URL their $ids name (node-packs.md, Schema $id resolution).
		// addServed refuses a manifest with another name or version; a
		// pack the index alone names, or a snapshot, is checked here. Each
		// segment is escaped all the same, and a file named "." or ".."
		// is refused, so no document can steer a request elsewhere.
		if err := checkServedIdentity(*p); err != nil {
			return nil, fmt.Errorf("registry index entry %q: %w", p.Name, err)
		}
		file := path.Base(ref)
		if file == "." || file == ".." || file == "/" {
			return nil, fmt.Errorf("%s@%s: schema ref %q names no file", p.Name, p.Version, ref)
		}
		return h.Get(ctx, fmt.Sprintf("%s/%s/%s/%s", base, url.PathEscape(p.Name), url.PathEscape(p.Version), url.PathEscape(file)), registry.Policy{Immutable: true})
	}
	c.Warnings = h.Warnings
	return c, nil
}

// addServed adds one index entry from its version manifest; an entry whose
// manifest is gone (yanked) keeps what the index says.
func (c *Catalog) addServed(ctx context.Context, h *registry.Cache, base, tmpl string, e indexEntry) error {
	version := e.version()
	if version == "" {
		c.addIndex([]indexEntry{e})
		return nil
	}
	u := absolute(base, registry.Expand(tmpl, map[string]string{"name": e.Name, "version": version}))
	raw, err := h.Get(ctx, u, registry.Policy{Immutable: true})
	if errors.Is(err, registry.ErrNotFound) {
		c.addIndex([]indexEntry{e})
		return nil
	}
	if err != nil {
		return fmt.Errorf("version manifest of %s@%s: %w", e.Name, version, err)
	}
	p, nodes, err := parseManifest(raw, "")
	if err == nil {
		err = checkServedIdentity(p)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", u, err)
	}
	c.add(p, nodes)
	return nil
}

// checkServedIdentity refuses a served manifest whose name or version is
// not a pack name or a strict SemVer version: they become path segments of
// the schema URLs fetched later, and a name such as "../admin" would steer
// those requests to other paths of the registry's origin.
func checkServedIdentity(p Pack) error {
	if !pack.NameRE().MatchString(p.Name) {
		return fmt.Errorf("name %q is not a pack name (<scope>.<org>.<name>); refusing to read its schemas", p.Name)
	}
	if _, err := semver.StrictNewVersion(p.Version); err != nil {
		return fmt.Errorf("version %q is not a strict SemVer version; refusing to read its schemas", p.Version)
	}
	return nil
}

func absolute(base, ref string) string {
	if IsURL(ref) {
		return ref
	}
	return base + "/" + strings.TrimPrefix(ref, "/")
}
