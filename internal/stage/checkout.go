package stage

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path"
	"path/filepath"

	"github.com/wop-cli/wop/internal/registry"
	"github.com/wop-cli/wop/internal/safefile"
)

// Checkout is a clone of a pull-request registry's repository: its served
// tree under registry/ (discovery document, keys, registry/<tree>/packs)
// and pack sources under packs/.
type Checkout struct {
	Root string
}

// Open checks that root looks like a registry checkout.
func Open(root string) (*Checkout, error) {
	c := &Checkout{Root: root}
	if _, err := os.Stat(c.path("registry", registry.DiscoveryPath)); err != nil {
		return nil, fmt.Errorf("%s does not look like a registry checkout (no registry%s): %w", root, registry.DiscoveryPath, errors.Unwrap(err))
	}
	return c, nil
}

// path joins slash-separated parts under the checkout's root.
func (c *Checkout) path(parts ...string) string {
	return filepath.Join(append([]string{c.Root}, parts...)...)
}

// placeholderRegistry names the checkout's registry when its discovery
// document has no usable url: a host that never resolves.
const placeholderRegistry = "http://registry-checkout.invalid"

// Client reads the checkout's registry/ folder as the registry would serve
// it, through the same client HTTP publish uses, with a transport that
// opens files: the discovery document, key lookups and namespace rules are
// the registry's own, and no byte goes over the network. The client's
// origin is the registry's own (d's url), so a URL in the document that
// names another host is refused as HTTP publish refuses it, never mapped
// to a file of the checkout.
func (c *Checkout) Client(d *registry.Discovery) *registry.Client {
	opt := registry.Options{Registry: d.URL, Transport: http.NewFileTransport(http.Dir(c.path("registry")))}
	client, err := registry.New(opt)
	if err != nil { // no url, or not an http(s) one
		opt.Registry = placeholderRegistry
		client, _ = registry.New(opt) // a constant, valid URL: New cannot fail
	}
	return client
}

// Discover reads registry/.well-known/openwop-registry.json. A document
// over the size ceiling or not JSON wraps registry.ErrUnreadable.
func (c *Checkout) Discover(ctx context.Context) (*registry.Discovery, error) {
	p := c.path("registry", filepath.FromSlash(registry.DiscoveryPath))
	data, err := safefile.Read(p, safefile.Options{Max: registry.MaxDiscovery, FollowLinks: true})
	var tooLarge *safefile.TooLargeError
	switch {
	case errors.As(err, &tooLarge):
		return nil, fmt.Errorf("%s: %w: discovery document over %d bytes", p, registry.ErrUnreadable, tooLarge.Max)
	case err != nil:
		return nil, err
	}
	d, err := registry.ParseDiscovery(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	return d, nil
}

// CheckKey checks, before the registry client reads it, that the key
// keyID's publicKeyUrl is on the registry's origin and that the checkout
// holds the file it names, so a message names that file rather than a URL
// no one serves.
func (c *Checkout) CheckKey(d *registry.Discovery, keyID, packName string) error {
	sk, err := d.SigningKey(keyID, packName)
	if err != nil {
		return nil // the gate itself says why
	}
	keyURL := sk.PublicKeyURL
	if keyURL == "" {
		keyURL = registry.Expand(d.Endpoints().PublicKey, map[string]string{"keyId": keyID})
	}
	u, err := c.Client(d).Resolve(keyURL)
	if err != nil {
		return fmt.Errorf("key %q: %w", keyID, err)
	}
	file := c.path("registry", filepath.FromSlash(path.Clean("/"+u.Path)))
	if _, err := os.Stat(file); err != nil {
		return fmt.Errorf("key %q: publicKeyUrl %s: the checkout has no %s: %w", keyID, keyURL, file, errors.Unwrap(err))
	}
	return nil
}

// VersionDir is registry/<tree>/packs/<name>/-, relative to the root.
func VersionDir(tree, name string) string {
	return filepath.Join("registry", tree, "packs", name, "-")
}
