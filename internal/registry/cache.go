package registry

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
)

// staleAfter is the age past which an offline catalog is called stale.
const staleAfter = 7 * 24 * time.Hour

// ErrNotCached is returned offline (only the catalog reads offline) for a
// document the cache does not hold.
var ErrNotCached = errors.New("not in the catalog cache")

// Cache keeps registry documents on disk with their validators, so a
// document is fetched once and afterwards revalidated (a 304) or, when it
// names an immutable version, read straight from disk. It is the one cache
// of registry documents: the URL catalog and `--against registry` use it.
type Cache struct {
	Dir     string // "" keeps nothing (every run fetches)
	Offline bool   // read only the cache: a document it lacks is ErrNotCached
	Fetch   Fetcher
	Now     func() time.Time // nil means time.Now
	// Warnings collects what the caller should tell the user: a registry
	// that did not answer, so a cached copy stood in.
	Warnings []string
}

// Policy says when a cached copy may be used without asking the registry.
type Policy struct {
	// Immutable documents (a published version's manifest, schemas or
	// archive) are served from the cache without asking.
	Immutable bool
	// FreshFor is how long a mutable document is used without asking
	// again; 0 revalidates on every Get.
	FreshFor time.Duration
	// Valid, if set, rejects a cached body (say, an archive that no longer
	// hashes to its integrity); it is then fetched again.
	Valid func([]byte) bool
}

// cacheMeta is stored next to a cached body.
type cacheMeta struct {
	URL          string    `json:"url"`
	ETag         string    `json:"etag,omitempty"`
	LastModified string    `json:"lastModified,omitempty"`
	Fetched      time.Time `json:"fetched"`
}

func (h *Cache) paths(url string) (body, meta string) {
	sum := sha256.Sum256([]byte(url))
	base := filepath.Join(h.Dir, hex.EncodeToString(sum[:16]))
	return base + ".body", base + ".json"
}

func (h *Cache) load(url string) ([]byte, *cacheMeta) {
	if h.Dir == "" {
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

func (h *Cache) store(url string, body []byte, m cacheMeta) {
	if h.Dir == "" {
		return
	}
	if err := os.MkdirAll(h.Dir, 0o755); err != nil {
		return // a cache that cannot be written costs speed, not correctness
	}
	bodyPath, metaPath := h.paths(url)
	raw, _ := json.Marshal(m)
	if atomicfile.Write(bodyPath, body, 0o644) == nil {
		_ = atomicfile.Write(metaPath, raw, 0o644)
	}
}

// Get returns url's document, from the cache when p allows, else fetched
// (conditionally, when a copy is held) and stored. When the registry does
// not answer, a cached copy is used with a warning; without one, the error
// stands.
func (h *Cache) Get(ctx context.Context, url string, p Policy) ([]byte, error) {
	body, meta := h.load(url)
	if meta != nil && p.Valid != nil && !p.Valid(body) {
		body, meta = nil, nil
	}
	now := time.Now
	if h.Now != nil {
		now = h.Now
	}
	if meta != nil && h.Offline && !p.Immutable && now().Sub(meta.Fetched) > staleAfter {
		h.Warnings = append(h.Warnings, fmt.Sprintf("the cached %s is from %s; run without --offline to refresh the catalog", url, meta.Fetched.Format(time.DateOnly)))
	}
	if meta != nil && (p.Immutable || h.Offline || now().Sub(meta.Fetched) < p.FreshFor) {
		return body, nil
	}
	if h.Offline {
		return nil, fmt.Errorf("%s: %w (run once without --offline to fill it)", url, ErrNotCached)
	}
	var etag, lastMod string
	if meta != nil {
		etag, lastMod = meta.ETag, meta.LastModified
	}
	resp, err := h.Fetch.Get(ctx, url, GetOptions{ETag: etag, LastModified: lastMod})
	switch {
	case err != nil && meta != nil:
		h.Warnings = append(h.Warnings, fmt.Sprintf("%v; using the copy cached %s", err, meta.Fetched.Format(time.RFC3339)))
		return body, nil
	case err != nil:
		return nil, err
	case resp.NotModified() && meta != nil:
		meta.Fetched = now()
		h.store(url, body, *meta)
		return body, nil
	case resp.NotModified():
		return nil, fmt.Errorf("GET %s: 304 Not Modified for a document wop does not hold", url)
	}
	h.store(url, resp.Body, cacheMeta{URL: url, ETag: resp.ETag, LastModified: resp.LastModified, Fetched: now()})
	return resp.Body, nil
}

// Fetcher is the conditional GET a Cache needs. Client provides it; tests
// give a fake.
type Fetcher interface {
	Get(ctx context.Context, ref string, o GetOptions) (*Response, error)
}

var _ Fetcher = (*Client)(nil)
