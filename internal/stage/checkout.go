package stage

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"

	"github.com/wop-cli/wop/internal/registry"
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

// Client reads the checkout's registry/ folder as the registry would serve
// it, through the same client HTTP publish uses, with a transport that
// opens files: the discovery document, key lookups and namespace rules are
// the registry's own, and no byte goes over the network.
func (c *Checkout) Client() *registry.Client {
	client, _ := registry.New(registry.Options{ // a constant, valid URL: New cannot fail
		Registry:  "http://registry-checkout.invalid",
		Transport: http.NewFileTransport(http.Dir(c.path("registry"))),
	})
	return client
}

// Discover reads registry/.well-known/openwop-registry.json.
func (c *Checkout) Discover(ctx context.Context) (*registry.Discovery, error) {
	d, err := c.Client().Discover(ctx)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.path("registry", registry.DiscoveryPath), err)
	}
	return d, nil
}

// VersionDir is registry/<tree>/packs/<name>/-, relative to the root.
func VersionDir(tree, name string) string {
	return filepath.Join("registry", tree, "packs", name, "-")
}
