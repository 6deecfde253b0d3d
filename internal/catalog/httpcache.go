package catalog

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/wop-cli/wop/internal/atomicfile"
	"github.com/wop-cli/wop/internal/registry"
)

// freshFor is how long a fetched index or discovery document is used
// without asking the registry again: lint runs back to back cost no request.
const freshFor = 10 * time.Minute

// staleAfter is the age past which an offline catalog is called stale.
const staleAfter = 7 * 24 * time.Hour

// ErrNotCached is returned offline for a document the cache does not hold.
var ErrNotCached = errors.New("not in the catalog cache")

// httpCache keeps registry documents on disk with their validators, so a
// document is fetched once and afterwards revalidated (a 304) or, when it
// names an immutable version, read straight from disk.
type httpCache struct {
	dir     string // "" keeps nothing (every run fetches)
	offline bool
	fetch   Fetcher
	now     func() time.Time
	// warnings collects what the caller should tell the user: a registry
	// that did not answer, so a cached copy stood in.
	warnings []string
}

// cacheMeta is stored next to a cached body.
type cacheMeta struct {
	URL          string    `json:"url"`
	ETag         string    `json:"etag,omitempty"`
	LastModified string    `json:"lastModified,omitempty"`
	Fetched      time.Time `json:"fetched"`
}

func (h *httpCache) paths(url string) (body, meta string) {
	sum := sha256.Sum256([]byte(url))
	base := filepath.Join(h.dir, hex.EncodeToString(sum[:16]))
	return base + ".body", base + ".json"
}

func (h *httpCache) load(url string) ([]byte, *cacheMeta) {
	if h.dir == "" {
		return nil, nil
	}
	bodyPath, metaPath := h.paths(url)
	raw, err := os.ReadFile(metaPath)
	if err != nil {
		return nil, nil
	}
	var m cacheMeta
	if json.Unmarshal(raw, &m) != nil || m.URL != url {
		return nil, nil
	}
	body, err := os.ReadFile(bodyPath)
	if err != nil {
		return nil, nil
	}
	return body, &m
}

func (h *httpCache) store(url string, body []byte, m cacheMeta) {
	if h.dir == "" {
		return
	}
	if err := os.MkdirAll(h.dir, 0o755); err != nil {
		return // a cache that cannot be written costs speed, not correctness
	}
	bodyPath, metaPath := h.paths(url)
	raw, _ := json.Marshal(m)
	if atomicfile.Write(bodyPath, body, 0o644) == nil {
		_ = atomicfile.Write(metaPath, raw, 0o644)
	}
}

// get returns url's document. immutable documents (a published version's
// manifest and schemas) are served from the cache without asking; others
// are revalidated. When the registry does not answer, a cached copy is
// used with a warning; without one, the error stands.
func (h *httpCache) get(ctx context.Context, url string, immutable bool) ([]byte, error) {
	body, meta := h.load(url)
	if meta != nil && h.offline && !immutable && h.now().Sub(meta.Fetched) > staleAfter {
		h.warnings = append(h.warnings, fmt.Sprintf("the cached %s is from %s; run without --offline to refresh the catalog", url, meta.Fetched.Format(time.DateOnly)))
	}
	if meta != nil && (immutable || h.offline || h.now().Sub(meta.Fetched) < freshFor) {
		return body, nil
	}
	if h.offline {
		return nil, fmt.Errorf("%s: %w (run once without --offline to fill it)", url, ErrNotCached)
	}
	var etag, lastMod string
	if meta != nil {
		etag, lastMod = meta.ETag, meta.LastModified
	}
	resp, err := h.fetch.Get(ctx, url, registry.GetOptions{ETag: etag, LastModified: lastMod})
	switch {
	case err != nil && meta != nil:
		h.warnings = append(h.warnings, fmt.Sprintf("%v; using the copy cached %s", err, meta.Fetched.Format(time.RFC3339)))
		return body, nil
	case err != nil:
		return nil, err
	case resp.NotModified() && meta != nil:
		meta.Fetched = h.now()
		h.store(url, body, *meta)
		return body, nil
	case resp.NotModified():
		return nil, fmt.Errorf("GET %s: 304 Not Modified for a document wop does not hold", url)
	}
	h.store(url, resp.Body, cacheMeta{URL: url, ETag: resp.ETag, LastModified: resp.LastModified, Fetched: h.now()})
	return resp.Body, nil
}

// Fetcher is the conditional GET the URL catalog needs. registry.Client,
// the one HTTP client, provides it.
type Fetcher interface {
	Get(ctx context.Context, ref string, o registry.GetOptions) (*registry.Response, error)
}

var _ Fetcher = (*registry.Client)(nil)
