package registry

import (
	"context"
	"io"
)

// OpenTarball GETs a version's archive for streaming; the caller closes it.
// A 404 wraps ErrNotFound.
func (c *Client) OpenTarball(ctx context.Context, e Endpoints, name, version string) (io.ReadCloser, error) {
	return c.Open(ctx, Expand(e.VersionTarball, map[string]string{"name": name, "version": version}))
}
