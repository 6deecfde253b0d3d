package registry

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/wop-cli/wop/internal/jsonpos"
)

// PublishedVersion is one entry of a pack's metadata document (index.json):
// what `wop pack breaking --against registry` needs to pick and fetch the
// previous release.
type PublishedVersion struct {
	Version    string `json:"version"`
	TarballURL string `json:"tarballUrl"`
	Integrity  string `json:"integrity"`
	Yanked     bool   `json:"yanked"`
	Deprecated bool   `json:"deprecated"`
}

// PackMetadata GETs a pack's metadata document and returns it as served
// (for caching) with its versions; found is false on 404 (never published).
func (c *Client) PackMetadata(ctx context.Context, e Endpoints, name string) (raw []byte, versions []PublishedVersion, found bool, err error) {
	resp, err := c.Get(ctx, Expand(e.PackMetadata, map[string]string{"name": name}), GetOptions{})
	if errors.Is(err, ErrNotFound) {
		return nil, nil, false, nil
	}
	if err != nil {
		return nil, nil, false, err
	}
	raw = resp.Body
	versions, err = ParsePackMetadata(raw)
	return raw, versions, err == nil, err
}

// Download GETs a registry-relative or absolute URL, such as a version's
// tarballUrl. Callers check the bytes against the version's integrity.
func (c *Client) Download(ctx context.Context, ref string) ([]byte, error) {
	resp, err := c.Get(ctx, ref, GetOptions{MaxBytes: maxDownload})
	if err != nil {
		return nil, err
	}
	return resp.Body, nil
}

// maxDownload bounds an archive read whole: well above the compressed size
// of any pack within the default size ceilings.
const maxDownload = 256 << 20

// ParsePackMetadata reads the versions of a pack metadata document.
func ParsePackMetadata(raw []byte) ([]PublishedVersion, error) {
	var doc struct {
		Versions []PublishedVersion `json:"versions"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("pack metadata: %w", jsonpos.DecodeError(raw, err))
	}
	return doc.Versions, nil
}
