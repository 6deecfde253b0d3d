package release

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/Masterminds/semver/v3"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/registry"
	"github.com/wop-cli/wop/internal/tarball"
	"github.com/wop-cli/wop/internal/verify"
)

// fromRegistry fetches the release ref names from opt.Registry: NAME@VERSION,
// or ("registry") the highest published version below the pack's own,
// skipping yanked versions and prereleases. Archives are checked against
// the metadata's integrity and their signature before the registry cache
// (registry.Cache, the one cache of registry documents) keeps them; the
// discovery document and the metadata are cached too, so a rerun works
// offline.
func fromRegistry(ctx context.Context, ref, packPath string, opt Options) (*pack.Pack, func(), error) {
	noop := func() {}
	base := strings.TrimSuffix(opt.Registry, "/")
	if base == "" {
		return nil, noop, inputErrorf("--against %s: set WOP_REGISTRY to the registry URL", ref)
	}
	name, want, err := target(ref, packPath, opt.Limits)
	if err != nil {
		return nil, noop, err
	}
	client, cache, err := open(base, opt)
	if err != nil {
		return nil, noop, err
	}
	d, versions, err := publishedVersions(ctx, cache, client, name)
	if err != nil {
		return nil, noop, err
	}
	pv, ok := pickVersion(versions, want)
	if !ok {
		if ref == "registry" {
			return nil, noop, ErrNoPrevious
		}
		return nil, noop, inputErrorf("--against %s: %s has no published version %s", ref, name, want)
	}
	tgz, err := fetchVerified(ctx, cache, verifiedArchive{client: client, disc: d, name: name, pv: pv})
	if err != nil {
		return nil, noop, err
	}
	pk, cleanup, err := loadTemp(tgz, opt.Limits)
	if err != nil {
		return nil, noop, fmt.Errorf("%s@%s: %w", name, pv.Version, err)
	}
	pk.Display = name + "@" + pv.Version
	return pk, cleanup, nil
}

// open makes the client of the registry at base, with its token, and the
// cache its documents go through.
func open(base string, opt Options) (*registry.Client, *registry.Cache, error) {
	token, err := opt.Token(base)
	if err != nil {
		return nil, nil, err
	}
	client, err := registry.New(registry.Options{Registry: base, Token: token, UserAgent: opt.UserAgent,
		Transport: opt.Transport, MaxAttempts: 3})
	if err != nil {
		return nil, nil, inputErrorf("WOP_REGISTRY: %v", err)
	}
	return client, &registry.Cache{Dir: cacheDir(opt.CacheRoot, base), Fetch: client, Now: opt.Now}, nil
}

// target is the pack name and the version wanted: exact for NAME@VERSION,
// "<VERSION" (below the pack's own) for registry.
func target(ref, packPath string, lim tarball.Limits) (name, want string, err error) {
	if n, v, ok := strings.Cut(ref, "@"); ok && ref != "registry" {
		if _, err := semver.StrictNewVersion(v); err != nil || n == "" {
			return "", "", inputErrorf("--against %s: want NAME@VERSION with a SemVer version", ref)
		}
		return n, v, nil
	}
	pk, err := pack.Load(packPath, lim)
	if err != nil {
		return "", "", err
	}
	v, err := pk.ManifestString("version")
	if err != nil {
		return "", "", err
	}
	n, err := pk.ManifestString("name")
	if err != nil || n == "" {
		return "", "", inputErrorf("%s: the manifest names no pack: give --against NAME@VERSION", packPath)
	}
	return n, "<" + v, nil
}

// pickVersion finds the wanted version: exact, or the highest release
// below "<V" that is neither yanked nor a prerelease.
func pickVersion(versions []registry.PublishedVersion, want string) (registry.PublishedVersion, bool) {
	below, isBelow := strings.CutPrefix(want, "<")
	limit, _ := semver.StrictNewVersion(below)
	var best registry.PublishedVersion
	var bestV *semver.Version
	for _, pv := range versions {
		if !isBelow {
			if pv.Version == want {
				return pv, true
			}
			continue
		}
		v, err := semver.StrictNewVersion(pv.Version)
		if err != nil || pv.Yanked || v.Prerelease() != "" || limit == nil || !v.LessThan(limit) {
			continue
		}
		if bestV == nil || v.GreaterThan(bestV) {
			best, bestV = pv, v
		}
	}
	return best, bestV != nil
}

// publishedVersions reads the registry's discovery document and the pack's
// metadata through the cache: asked afresh each time, and read from the
// cache of the last successful answer when the registry cannot be reached.
// A pack never published has no versions.
func publishedVersions(ctx context.Context, cache *registry.Cache, c *registry.Client, name string) (*registry.Discovery, []registry.PublishedVersion, error) {
	raw, err := cache.Get(ctx, c.Base()+registry.DiscoveryPath, registry.Policy{})
	if err != nil {
		return nil, nil, &UnreachableError{err}
	}
	d, err := registry.ParseDiscovery(raw)
	if err != nil {
		return nil, nil, &UnreachableError{fmt.Errorf("%s: %w", registry.DiscoveryPath, err)}
	}
	u, err := c.Resolve(registry.Expand(d.Endpoints().PackMetadata, map[string]string{"name": name}))
	if err != nil {
		return nil, nil, &UnreachableError{err}
	}
	raw, err = cache.Get(ctx, u.String(), registry.Policy{})
	if errors.Is(err, registry.ErrNotFound) {
		return d, nil, nil
	}
	if err != nil {
		return nil, nil, &UnreachableError{err}
	}
	vs, err := registry.ParsePackMetadata(raw)
	return d, vs, err
}

// fetchVerified returns a version's archive: the cached copy while its
// bytes still hash to the version's integrity, else downloaded and checked
// (verifiedArchive) before the cache keeps it.
func fetchVerified(ctx context.Context, cache *registry.Cache, v verifiedArchive) ([]byte, error) {
	if v.pv.Integrity == "" {
		return nil, fmt.Errorf("%s@%s: the registry lists no integrity; refusing an unverifiable baseline", v.name, v.pv.Version)
	}
	ref := v.pv.TarballURL
	if ref == "" {
		ref = registry.Expand(v.disc.Endpoints().VersionTarball, map[string]string{"name": v.name, "version": v.pv.Version})
	}
	u, err := v.client.Resolve(ref)
	if err != nil {
		return nil, &UnreachableError{err}
	}
	archives := &registry.Cache{Dir: cache.Dir, Fetch: v, Now: cache.Now}
	return archives.Get(ctx, u.String(), registry.Policy{Immutable: true,
		Valid: func(b []byte) bool { return sri(b) == v.pv.Integrity }})
}

// verifiedArchive is the registry.Fetcher of a version's archive: it
// downloads the archive and checks its integrity and signature (with the
// registry's keys), so the cache keeps only archives that passed.
type verifiedArchive struct {
	client *registry.Client
	disc   *registry.Discovery
	name   string
	pv     registry.PublishedVersion
}

var _ registry.Fetcher = verifiedArchive{}

func (v verifiedArchive) Get(ctx context.Context, ref string, _ registry.GetOptions) (*registry.Response, error) {
	tgz, err := v.client.Download(ctx, ref)
	if err != nil {
		return nil, &UnreachableError{err}
	}
	keys := &Registry{ctx: ctx, Client: v.client, disc: v.disc}
	rep, err := verify.Archive(bytes.NewReader(tgz), verify.Options{Integrity: v.pv.Integrity, ResolveKey: keys.Key, Limits: tarball.DefaultLimits})
	if err != nil {
		return nil, fmt.Errorf("%s@%s: %w", v.name, v.pv.Version, err)
	}
	for _, ch := range rep.Checks {
		if !ch.OK {
			return nil, fmt.Errorf("%s@%s from the registry failed its %s check: %s", v.name, v.pv.Version, ch.Name, ch.Message)
		}
	}
	return &registry.Response{URL: ref, StatusCode: 200, Body: tgz}, nil
}

// cacheDir is where documents of the registry at base are cached: under
// wop's cache root (the user cache directory, as lint's cache), or nowhere
// ("") when there is none (WOP_CACHE_DIR=off). Never the temporary
// directory, which other users share and where "off" would not be honoured.
func cacheDir(root, base string) string {
	if root == "" {
		return ""
	}
	host := strings.NewReplacer("://", "_", "/", "_", ":", "_").Replace(base)
	return filepath.Join(root, "registry", host)
}

func sri(data []byte) string {
	sum := sha256.Sum256(data)
	return "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
}
