package packcmd

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
	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/registry"
	"github.com/wop-cli/wop/internal/tarball"
	"github.com/wop-cli/wop/internal/verify"
)

// registryRelease fetches the previous release of the pack at packPath from
// $WOP_REGISTRY: NAME@VERSION, or ("registry") the highest published
// version below the pack's own, skipping yanked versions and prereleases.
// Archives are checked against the metadata's integrity and their
// signature before the registry cache (registry.Cache, the one cache of
// registry documents) keeps them; the discovery document and the metadata
// are cached too, so a rerun works offline. The returned func removes the
// archive's temporary copy.
func registryRelease(ctx context.Context, env *cli.Env, ref, packPath string, lim tarball.Limits) (*pack.Pack, func(), error) {
	noop := func() {}
	base := strings.TrimSuffix(env.Getenv("WOP_REGISTRY"), "/")
	if base == "" {
		return nil, noop, cli.Usagef("--against %s: set WOP_REGISTRY to the registry URL", ref)
	}
	name, want, err := baselineTarget(ref, packPath, lim)
	if err != nil {
		return nil, noop, err
	}
	token, err := readToken(env, base) // base is $WOP_REGISTRY: WOP_TOKEN is its token
	if err != nil {
		return nil, noop, err
	}
	client, err := registry.New(registry.Options{Registry: base, Token: token, UserAgent: "wop/" + env.Version,
		Transport: env.HTTPClient().Transport, MaxAttempts: 3})
	if err != nil {
		return nil, noop, cli.Usagef("WOP_REGISTRY: %v", err)
	}
	cache := &registry.Cache{Dir: cacheDirFor(env, base), Fetch: client, Now: env.Now}
	d, versions, err := publishedVersions(ctx, cache, client, name)
	if err != nil {
		return nil, noop, err
	}
	pv, ok := pickVersion(versions, want)
	if !ok {
		if ref == "registry" {
			return nil, noop, errNoPrevious
		}
		return nil, noop, cli.Usagef("--against %s: %s has no published version %s", ref, name, want)
	}
	tgz, err := fetchVerified(ctx, cache, verifiedArchive{client: client, disc: d, name: name, pv: pv})
	if err != nil {
		return nil, noop, err
	}
	pk, cleanup, err := loadTempArchive(tgz, lim)
	if err != nil {
		return nil, noop, fmt.Errorf("%s@%s: %w", name, pv.Version, err)
	}
	pk.Display = name + "@" + pv.Version
	return pk, cleanup, nil
}

// baselineTarget is the pack name and the version wanted: exact for
// NAME@VERSION, "<VERSION" (below the pack's own) for registry.
func baselineTarget(ref, packPath string, lim tarball.Limits) (name, want string, err error) {
	if n, v, ok := strings.Cut(ref, "@"); ok && ref != "registry" {
		if _, err := semver.StrictNewVersion(v); err != nil || n == "" {
			return "", "", cli.Usagef("--against %s: want NAME@VERSION with a SemVer version", ref)
		}
		return n, v, nil
	}
	pk, err := pack.Load(packPath, lim)
	if err != nil {
		return "", "", err
	}
	v, err := manifestField(pk, "version")
	if err != nil {
		return "", "", err
	}
	n, err := manifestField(pk, "name")
	if err != nil || n == "" {
		return "", "", cli.Usagef("%s: the manifest names no pack: give --against NAME@VERSION", packPath)
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
		return nil, nil, baselineUnreachable(err)
	}
	d, err := registry.ParseDiscovery(raw)
	if err != nil {
		return nil, nil, baselineUnreachable(fmt.Errorf("%s: %w", registry.DiscoveryPath, err))
	}
	u, err := c.Resolve(registry.Expand(d.Endpoints().PackMetadata, map[string]string{"name": name}))
	if err != nil {
		return nil, nil, baselineUnreachable(err)
	}
	raw, err = cache.Get(ctx, u.String(), registry.Policy{})
	if errors.Is(err, registry.ErrNotFound) {
		return d, nil, nil
	}
	if err != nil {
		return nil, nil, baselineUnreachable(err)
	}
	vs, err := registry.ParsePackMetadata(raw)
	return d, vs, err
}

// baselineUnreachable: the registry could not give a baseline (and the
// cache held none); every such failure exits as a network error.
func baselineUnreachable(err error) error {
	return &cli.ExitError{Code: cli.ExitNetwork, Err: fmt.Errorf("registry: %w", err)}
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
		return nil, baselineUnreachable(err)
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
		return nil, baselineUnreachable(err)
	}
	keys := &registryKeys{ctx: ctx, client: v.client, disc: v.disc}
	rep, err := verify.Archive(bytes.NewReader(tgz), verify.Options{Integrity: v.pv.Integrity, ResolveKey: keys.key, Limits: tarball.DefaultLimits})
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

// loadTempArchive loads an archive held in memory from a temporary file
// (a pack reads its archive lazily); the returned func removes the file.
func loadTempArchive(tgz []byte, lim tarball.Limits) (*pack.Pack, func(), error) {
	noop := func() {}
	held, tmp, err := againstTemp()
	if err != nil {
		return nil, noop, err
	}
	cleanup := func() { held.Remove() }
	_, err = tmp.Write(tgz)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		cleanup()
		return nil, noop, err
	}
	pk, err := pack.Load(tmp.Name(), lim)
	if err != nil {
		cleanup()
		return nil, noop, err
	}
	return pk, cleanup, nil
}

// cacheDirFor is where documents of the registry at base are cached: under
// wop's cache root (the user cache directory, as lint's cache), or nowhere
// ("") when WOP_CACHE_DIR=off. Never the temporary directory, which other
// users share and where "off" would not be honoured.
func cacheDirFor(env *cli.Env, base string) string {
	if env.CacheDir == "" {
		return ""
	}
	host := strings.NewReplacer("://", "_", "/", "_", ":", "_").Replace(base)
	return filepath.Join(env.CacheDir, "registry", host)
}

func sri(data []byte) string {
	sum := sha256.Sum256(data)
	return "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
}
