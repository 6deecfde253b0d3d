package registry

import (
	"context"
	"fmt"
	"io"
	"net/http"
)

// OpenTarball GETs a version's archive for streaming; the caller closes it.
// A 404 wraps ErrNotFound.
func (c *Client) OpenTarball(ctx context.Context, e Endpoints, name, version string) (io.ReadCloser, error) {
	u := c.resolve(Expand(e.VersionTarball, map[string]string{"name": name, "version": version}))
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return nil, fmt.Errorf("GET %s: %w", u, err)
	}
	if resp.StatusCode == http.StatusOK {
		return resp.Body, nil
	}
	resp.Body.Close()
	if resp.StatusCode == http.StatusNotFound {
		return nil, fmt.Errorf("GET %s: %w", u, ErrNotFound)
	}
	return nil, fmt.Errorf("GET %s: %s", u, resp.Status)
}
