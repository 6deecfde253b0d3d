// Package registry talks to OpenWOP registries over HTTP: the discovery
// document, its URL templates and signing keys (FORMAT.md §5).
package registry

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/wop-cli/wop/internal/sign"
)

// DiscoveryPath is where a registry describes itself.
const DiscoveryPath = "/.well-known/openwop-registry.json"

// Discovery is the part of the discovery document wop uses.
type Discovery struct {
	Name                string         `json:"name"`
	URL                 string         `json:"url"`
	RawEndpoints        map[string]any `json:"endpoints"` // templates; "v2" may hold a nested map: use Endpoints()
	SupportedNamespaces []string       `json:"supportedNamespaces"`
	SigningKeys         []SigningKey   `json:"signingKeys"`
	WriteAPI            WriteAPI       `json:"writeApi"`
}

// SigningKey is one key a registry accepts.
type SigningKey struct {
	KeyID               string   `json:"keyId"`
	Algorithm           string   `json:"algorithm"`
	PublicKeyURL        string   `json:"publicKeyUrl"`
	PermittedNamespaces []string `json:"permittedNamespaces"`
	Status              string   `json:"status"`
}

// WriteAPI says whether the registry accepts uploads.
type WriteAPI struct {
	Supported     bool   `json:"supported"`
	PublishMethod string `json:"publishMethod"`
	PublishURL    string `json:"publishUrl"`
}

// Covers reports whether a permittedNamespaces entry covers a pack name:
// "a.b.*" covers names starting "a.b.", anything else must match exactly.
func Covers(pattern, name string) bool {
	if prefix, ok := strings.CutSuffix(pattern, "*"); ok {
		return strings.HasPrefix(name, prefix)
	}
	return pattern == name
}

// Client reads from one registry.
type Client struct {
	Base string // registry root URL, no trailing slash
	HTTP *http.Client
}

// maxDocument bounds JSON documents read from a registry.
const maxDocument = 4 << 20

// Discover fetches and parses the discovery document.
func (c *Client) Discover(ctx context.Context) (*Discovery, error) {
	var d Discovery
	if err := c.getJSON(ctx, DiscoveryPath, &d); err != nil {
		return nil, err
	}
	return &d, nil
}

// Key returns the public key keyID, after checking that the registry lists
// it as active and permitted to sign packName.
func (c *Client) Key(ctx context.Context, d *Discovery, keyID, packName string) (ed25519.PublicKey, error) {
	var sk *SigningKey
	for i := range d.SigningKeys {
		if d.SigningKeys[i].KeyID == keyID {
			sk = &d.SigningKeys[i]
		}
	}
	if sk == nil {
		return nil, fmt.Errorf("key %q is not among the registry's signingKeys", keyID)
	}
	if sk.Status != "" && sk.Status != "active" {
		return nil, fmt.Errorf("key %q has status %q at the registry, not active", keyID, sk.Status)
	}
	permitted := false
	for _, ns := range sk.PermittedNamespaces {
		permitted = permitted || Covers(ns, packName)
	}
	if !permitted {
		return nil, fmt.Errorf("key %q may sign only %s, not %s", keyID, strings.Join(sk.PermittedNamespaces, ", "), packName)
	}
	keyURL := sk.PublicKeyURL
	if keyURL == "" {
		keyURL = Expand(d.Endpoints().PublicKey, map[string]string{"keyId": keyID})
	}
	raw, err := c.get(ctx, keyURL)
	if err != nil {
		return nil, err
	}
	pub, err := sign.ParsePublicKey(raw)
	if err != nil {
		return nil, fmt.Errorf("key %q from %s: %w", keyID, keyURL, err)
	}
	return pub, nil
}

func (c *Client) getJSON(ctx context.Context, ref string, v any) error {
	raw, err := c.get(ctx, ref)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("GET %s: not JSON: %w", c.resolve(ref), err)
	}
	return nil
}

// ErrNotFound is a 404 from the registry.
var ErrNotFound = errors.New("not found")

func (c *Client) get(ctx context.Context, ref string) ([]byte, error) {
	u := c.resolve(ref)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return nil, fmt.Errorf("GET %s: %w", u, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxDocument))
	if err != nil {
		return nil, fmt.Errorf("GET %s: %w", u, err)
	}
	if resp.StatusCode == http.StatusNotFound {
		return nil, fmt.Errorf("GET %s: %w", u, ErrNotFound)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %s", u, resp.Status)
	}
	return body, nil
}

// resolve makes a registry-relative reference absolute.
func (c *Client) resolve(ref string) string {
	if strings.HasPrefix(ref, "http://") || strings.HasPrefix(ref, "https://") {
		return ref
	}
	return strings.TrimSuffix(c.Base, "/") + "/" + strings.TrimPrefix(ref, "/")
}
