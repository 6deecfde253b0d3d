package registry

import (
	"context"
	"fmt"
	"io"
	"net/http"
)

// TokenVerdict is what a registry said of a token.
type TokenVerdict int

const (
	// TokenUnchecked: the registry has no write API, so nothing can vouch
	// for a token.
	TokenUnchecked TokenVerdict = iota
	// TokenAccepted: the registry authenticated the token (it went on to
	// refuse the empty probe body, as it must).
	TokenAccepted
	// TokenRefused: 401, the token is missing, wrong or expired.
	TokenRefused
)

// ProbeName and ProbeVersion name the upload CheckToken sends: a name no
// one publishes, under the community scope so registries that check names
// before tokens still reach the token check.
const (
	ProbeName    = "community.wop-token-check.probe"
	ProbeVersion = "0.0.0-token-check"
)

// emptyIntegrity is sha256-<base64> of zero bytes: the probe's body.
const emptyIntegrity = "sha256-47DEQpj8HBSa+/TXVtvsfWhZvWQWXNp6VE/vjrSwlPg="

// CheckToken asks the registry whether it accepts token, with the one
// request every write API answers: an upload, here with an empty body that
// can never be stored. FORMAT.md §5 defines no "who am I" endpoint, so a
// 401 is the only certain "no"; any other refusal of the empty body (400,
// 403, 404, 409, 413) means the token got past authentication. 403 is
// reported as accepted too: rights are per namespace and the probe's is
// nobody's.
func (c *Client) CheckToken(ctx context.Context, d *Discovery, token Token) (TokenVerdict, error) {
	if !d.WriteAPI.Supported {
		return TokenUnchecked, nil
	}
	e := d.Endpoints()
	target := c.resolve(Expand(e.VersionTarball, map[string]string{"name": ProbeName, "version": ProbeVersion}))
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, target, http.NoBody)
	if err != nil {
		return TokenUnchecked, err
	}
	req.Header.Set("Content-Type", "application/gzip")
	integrityHeader := "X-Pack-Sha256"
	if e.V2 {
		integrityHeader = "OpenWOP-Pack-Sha256"
	}
	req.Header.Set(integrityHeader, emptyIntegrity)
	req.Header.Set("X-Pack-Signing-Method", "none")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+string(token))
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return TokenUnchecked, fmt.Errorf("PUT %s: %w", target, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	switch {
	case resp.StatusCode == http.StatusUnauthorized:
		return TokenRefused, nil
	case resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500:
		return TokenUnchecked, parseError(http.MethodPut, target, resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	return TokenAccepted, nil
}
