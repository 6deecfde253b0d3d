package packcmd

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/Masterminds/semver/v3"
	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/atomicfile"
	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/registry"
	"github.com/wop-cli/wop/internal/tarball"
	"github.com/wop-cli/wop/internal/verify"
)

// releaseSource is what a registry baseline needs from the registry: the
// one HTTP client (internal/registry) satisfies it; kept small so that
// client can change underneath.
type releaseSource interface {
	Discover(ctx context.Context) (*registry.Discovery, error)
	PackMetadata(ctx context.Context, e registry.Endpoints, name string) ([]byte, []registry.PublishedVersion, bool, error)
	Download(ctx context.Context, ref string) ([]byte, error)
}

var _ releaseSource = (*registry.Client)(nil)

// registryRelease fetches the previous release of the pack at packPath from
// $WOP_REGISTRY: NAME@VERSION, or ("registry") the highest published
// version below the pack's own, skipping yanked versions and prereleases.
// Archives are checked against the metadata's integrity and their
// signature, and cached under their integrity; the metadata is cached too,
// so a rerun works offline.
func registryRelease(ctx context.Context, env *cli.Env, ref, packPath string, lim tarball.Limits) (*pack.Pack, error) {
	base := strings.TrimSuffix(env.Getenv("WOP_REGISTRY"), "/")
	if base == "" {
		return nil, cli.Usagef("--against %s: set WOP_REGISTRY to the registry URL", ref)
	}
	name, want, err := baselineTarget(ref, packPath, lim)
	if err != nil {
		return nil, err
	}
	token, err := readToken(env, base) // base is $WOP_REGISTRY: WOP_TOKEN is its token
	if err != nil {
		return nil, err
	}
	client, err := registry.New(registry.Options{Registry: base, Token: token, UserAgent: "wop/" + env.Version,
		Transport: env.HTTPClient().Transport, MaxAttempts: 3})
	if err != nil {
		return nil, cli.Usagef("WOP_REGISTRY: %v", err)
	}
	cache := registryCache{dir: cacheDirFor(env, base)}
	versions, endpoints, err := publishedVersions(ctx, client, cache, name)
	if err != nil {
		return nil, err
	}
	pv, ok := pickVersion(versions, want)
	if !ok {
		if ref == "registry" {
			return nil, errNoPrevious
		}
		return nil, cli.Usagef("--against %s: %s has no published version %s", ref, name, want)
	}
	path, err := cache.blob(pv.Integrity, func() ([]byte, error) {
		return fetchVerified(ctx, client, endpoints, name, pv)
	})
	if err != nil {
		return nil, err
	}
	pk, err := pack.Load(path, lim)
	if err != nil {
		return nil, fmt.Errorf("%s@%s: %w", name, pv.Version, err)
	}
	pk.Display = name + "@" + pv.Version
	return pk, nil
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
	v, err := manifestVersion(pk)
	if err != nil {
		return "", "", err
	}
	n, err := manifestName(pk)
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

// publishedVersions reads the pack's metadata, from the registry or, when
// it cannot be reached, from the cache of the last successful read.
func publishedVersions(ctx context.Context, c releaseSource, cache registryCache, name string) ([]registry.PublishedVersion, registry.Endpoints, error) {
	d, err := c.Discover(ctx)
	if err != nil {
		raw, cerr := os.ReadFile(cache.metadataPath(name))
		if cerr != nil {
			return nil, registry.Endpoints{}, &cli.ExitError{Code: cli.ExitNetwork, Err: fmt.Errorf("registry: %w", err)}
		}
		vs, perr := registry.ParsePackMetadata(raw)
		return vs, registry.Endpoints{}, perr
	}
	e := d.Endpoints()
	raw, vs, found, err := c.PackMetadata(ctx, e, name)
	if err != nil {
		return nil, e, &cli.ExitError{Code: cli.ExitNetwork, Err: fmt.Errorf("registry: %w", err)}
	}
	if found {
		_ = os.MkdirAll(filepath.Dir(cache.metadataPath(name)), 0o755)
		_ = atomicfile.Write(cache.metadataPath(name), raw, 0o644) // a cache: failures only cost offline reruns
	}
	return vs, e, nil
}

// fetchVerified downloads a version's archive and checks its integrity and
// signature (with the registry's keys) before anything uses it.
func fetchVerified(ctx context.Context, c *registry.Client, e registry.Endpoints, name string, pv registry.PublishedVersion) ([]byte, error) {
	if pv.Integrity == "" {
		return nil, fmt.Errorf("%s@%s: the registry lists no integrity; refusing an unverifiable baseline", name, pv.Version)
	}
	url := pv.TarballURL
	if url == "" {
		url = registry.Expand(e.VersionTarball, map[string]string{"name": name, "version": pv.Version})
	}
	tgz, err := c.Download(ctx, url)
	if err != nil {
		return nil, &cli.ExitError{Code: cli.ExitNetwork, Err: fmt.Errorf("registry: %w", err)}
	}
	rep, err := verify.Archive(tgz, verify.Options{Integrity: pv.Integrity, ResolveKey: (&registryKeys{ctx: ctx, client: c}).key, Limits: tarball.DefaultLimits})
	if err != nil {
		return nil, fmt.Errorf("%s@%s: %w", name, pv.Version, err)
	}
	for _, ch := range rep.Checks {
		if !ch.OK {
			return nil, fmt.Errorf("%s@%s from the registry failed its %s check: %s", name, pv.Version, ch.Name, ch.Message)
		}
	}
	return tgz, nil
}

// registryCache keeps pack metadata per name and archives per integrity.
type registryCache struct{ dir string }

func cacheDirFor(env *cli.Env, base string) string {
	root := env.CacheDir
	if root == "" {
		root = os.TempDir()
	}
	host := strings.NewReplacer("://", "_", "/", "_", ":", "_").Replace(base)
	return filepath.Join(root, "registry", host)
}

func (c registryCache) metadataPath(name string) string {
	return filepath.Join(c.dir, "packs", filepath.Base(name)+".json")
}

func blobName(integrity string) string {
	return strings.NewReplacer("/", "_", "+", "-", "=", "").Replace(integrity) + ".tgz"
}

// blob returns the path of the archive with integrity: the cached copy
// when its bytes still hash to it, else what fetch returns, stored first.
func (c registryCache) blob(integrity string, fetch func() ([]byte, error)) (string, error) {
	p := filepath.Join(c.dir, "blobs", blobName(integrity))
	if data, err := os.ReadFile(p); err == nil && sri(data) == integrity {
		return p, nil
	}
	data, err := fetch()
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return "", err
	}
	return p, atomicfile.Write(p, data, 0o644)
}

func sri(data []byte) string {
	sum := sha256.Sum256(data)
	return "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
}

func manifestName(pk *pack.Pack) (string, error) {
	src, err := pk.ReadFile(pack.ManifestName)
	if err != nil {
		return "", err
	}
	doc, err := jsonpos.Parse(src)
	if err != nil {
		return "", fmt.Errorf("%s: %w", pack.ManifestName, err)
	}
	return doc.Root.Get("name").String(), nil
}
