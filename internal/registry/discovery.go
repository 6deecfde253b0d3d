// Package registry is wop's one HTTP client, and what it knows of OpenWOP
// registries (FORMAT.md §5): the discovery document, its URL templates and
// signing keys, the write API and its error catalogue. Every request wop
// makes goes through Client: credentials bound to the registry's origin,
// safe redirects, phase timeouts, classified retries, redacted messages.
package registry

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
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

// Covers reports whether a permittedNamespaces entry covers a pack name,
// as the ecosystem matches them (FORMAT.md §5; the registry's
// verify-signatures.mjs gate): a pattern ending ".*" covers every name
// that starts with the part before the "*", whatever the number of labels
// ("community.*", "vendor.acme.*" and "core.openwop.agents.*" alike), as
// long as something follows the dot; any other pattern covers only the
// name equal to it, so "vendor.zet*" and "*" are not wildcards. It is the
// one grant check publish, stage and verify share (Discovery.SigningKey).
func Covers(pattern, name string) bool {
	if prefix, ok := strings.CutSuffix(pattern, "*"); ok && strings.HasSuffix(prefix, ".") {
		return strings.HasPrefix(name, prefix) && len(name) > len(prefix)
	}
	return pattern == name
}

// ErrUnreadable marks a discovery document wop cannot read at all (over
// the size ceiling, not JSON): unreadable input, not a network failure.
var ErrUnreadable = errors.New("unreadable input")

// MaxDiscovery is the largest discovery document read.
const MaxDiscovery = maxDocument

// Discover fetches and parses the discovery document.
func (c *Client) Discover(ctx context.Context) (*Discovery, error) {
	resp, err := c.Get(ctx, DiscoveryPath, GetOptions{MaxBytes: MaxDiscovery})
	var tooLarge *TooLargeError
	if errors.As(err, &tooLarge) {
		return nil, fmt.Errorf("%s %s: %w: discovery document over %d bytes", tooLarge.Method, tooLarge.URL, ErrUnreadable, tooLarge.Limit)
	}
	if err != nil {
		return nil, err
	}
	d, err := ParseDiscovery(resp.Body)
	if err != nil {
		return nil, c.redact.Error(fmt.Errorf("GET %s: %w", resp.URL, err))
	}
	return d, nil
}

// ParseDiscovery decodes a discovery document; one that is not JSON of the
// right shape wraps ErrUnreadable.
func ParseDiscovery(data []byte) (*Discovery, error) {
	var d Discovery
	if err := json.Unmarshal(data, &d); err != nil {
		return nil, fmt.Errorf("%w: the discovery document is not valid JSON: %v", ErrUnreadable, err)
	}
	return &d, nil
}

// DuplicateKeyError: the discovery document lists one key id more than
// once, so which status and namespaces apply is ambiguous.
type DuplicateKeyError struct {
	KeyID    string
	Statuses []string
}

func (e *DuplicateKeyError) Error() string {
	return fmt.Sprintf("key %q is listed %d times in the registry's signingKeys (statuses %s); wop trusts no entry of an ambiguous key",
		e.KeyID, len(e.Statuses), strings.Join(e.Statuses, ", "))
}

// Hint says who must act.
func (e *DuplicateKeyError) Hint() string {
	return "a registry must list each key id once; ask its operator to fix the discovery document"
}

// SigningKey returns the entry for keyID after checking that it is listed
// once, active, and permitted to sign packName.
func (d *Discovery) SigningKey(keyID, packName string) (*SigningKey, error) {
	var found []*SigningKey
	for i := range d.SigningKeys {
		if d.SigningKeys[i].KeyID == keyID {
			found = append(found, &d.SigningKeys[i])
		}
	}
	switch len(found) {
	case 0:
		return nil, fmt.Errorf("key %q is not among the registry's signingKeys", keyID)
	case 1:
	default:
		e := &DuplicateKeyError{KeyID: keyID}
		for _, k := range found {
			e.Statuses = append(e.Statuses, fmt.Sprintf("%q", k.Status))
		}
		return nil, e
	}
	sk := found[0]
	if sk.Status != "" && sk.Status != "active" {
		return nil, fmt.Errorf("key %q has status %q at the registry, not active", keyID, sk.Status)
	}
	for _, ns := range sk.PermittedNamespaces {
		if Covers(ns, packName) {
			return sk, nil
		}
	}
	return nil, fmt.Errorf("key %q may sign only %s, not %s%s", keyID, strings.Join(sk.PermittedNamespaces, ", "), packName, exactStars(sk.PermittedNamespaces))
}

// exactStars says, for a refusal, which of the patterns end in "*" without
// the dot before it: they read like wildcards but are exact names, as the
// registry's verify-signatures.mjs compares them, so "vendor.zet*" covers
// no vendor.zeta.* pack; the operator must list "vendor.zeta.*".
func exactStars(patterns []string) string {
	var exact []string
	for _, p := range patterns {
		if strings.HasSuffix(p, "*") && !strings.HasSuffix(p, ".*") {
			exact = append(exact, fmt.Sprintf("%q", p))
		}
	}
	if len(exact) == 0 {
		return ""
	}
	return fmt.Sprintf(" (%s: only a pattern ending \".*\" is a prefix; any other is an exact name)", strings.Join(exact, ", "))
}

// Key returns the public key keyID, after checking that the registry lists
// it once, as active and permitted to sign packName. The key's URL must be
// on the registry's origin (or an allowed one).
func (c *Client) Key(ctx context.Context, d *Discovery, keyID, packName string) (ed25519.PublicKey, error) {
	sk, err := d.SigningKey(keyID, packName)
	if err != nil {
		return nil, err
	}
	keyURL := sk.PublicKeyURL
	if keyURL == "" {
		keyURL = Expand(d.Endpoints().PublicKey, map[string]string{"keyId": keyID})
	}
	resp, err := c.Get(ctx, keyURL, GetOptions{MaxBytes: 64 << 10})
	if err != nil {
		return nil, fmt.Errorf("key %q: %w", keyID, err)
	}
	pub, err := sign.ParsePublicKey(resp.Body)
	if err != nil {
		return nil, c.redact.Error(fmt.Errorf("key %q from %s: %w", keyID, resp.URL, err))
	}
	return pub, nil
}

// VersionManifest GETs a version's served manifest; found is false on 404.
func (c *Client) VersionManifest(ctx context.Context, e Endpoints, name, version string) (body []byte, found bool, err error) {
	resp, err := c.Get(ctx, Expand(e.VersionManifest, map[string]string{"name": name, "version": version}), GetOptions{})
	if errors.Is(err, ErrNotFound) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	return resp.Body, true, nil
}
