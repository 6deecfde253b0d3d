package release

import (
	"context"
	"crypto/ed25519"
	"fmt"

	"github.com/wop-cli/wop/internal/registry"
	"github.com/wop-cli/wop/internal/tarball"
)

// Registry reads one registry for verification: its discovery document
// once, the keys it lists, and published archives.
type Registry struct {
	ctx    context.Context
	Client *registry.Client
	disc   *registry.Discovery
}

// NewRegistry reads the registry c talks to; ctx bounds every request,
// Key's included (verify.Options.ResolveKey takes none).
func NewRegistry(ctx context.Context, c *registry.Client) *Registry {
	return &Registry{ctx: ctx, Client: c}
}

// Discovery is the registry's discovery document, fetched once.
func (r *Registry) Discovery() (*registry.Discovery, error) {
	if r.disc != nil {
		return r.disc, nil
	}
	d, err := r.Client.Discover(r.ctx)
	if err != nil {
		return nil, err
	}
	r.disc = d
	return d, nil
}

// Key is the public key the registry lists as keyID, checked to be active
// and permitted for the pack name (a verify.Options.ResolveKey).
func (r *Registry) Key(keyID, name string) (ed25519.PublicKey, error) {
	d, err := r.Discovery()
	if err != nil {
		return nil, err
	}
	return r.Client.Key(r.ctx, d, keyID, name)
}

// Fetch GETs a published archive and its version manifest (nil if the
// registry serves none).
func (r *Registry) Fetch(ctx context.Context, name, version string) (tgz, manifest []byte, err error) {
	d, err := r.Discovery()
	if err != nil {
		return nil, nil, err
	}
	e := d.Endpoints()
	resp, err := r.Client.Get(ctx, registry.Expand(e.VersionTarball, map[string]string{"name": name, "version": version}),
		registry.GetOptions{MaxBytes: 2 * tarball.DefaultLimits.MaxTotal})
	if err != nil {
		return nil, nil, fmt.Errorf("%s@%s: %w", name, version, err)
	}
	manifest, _, err = r.Client.VersionManifest(ctx, e, name, version)
	if err != nil {
		return nil, nil, fmt.Errorf("%s@%s: %w", name, version, err)
	}
	return resp.Body, manifest, nil
}
