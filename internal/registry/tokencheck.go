package registry

import (
	"context"
	"errors"
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

// CheckToken asks the registry whether it accepts the client's
// credentials, with the one request every write API answers: an upload,
// here with an empty body that can never be stored. FORMAT.md §5 defines no
// "who am I" endpoint, so a 401 is the only certain "no"; any other refusal
// of the empty body (400, 403, 404, 409, 413) means the token got past
// authentication. 403 is reported as accepted too: rights are per
// namespace and the probe's is nobody's.
func (c *Client) CheckToken(ctx context.Context, d *Discovery) (TokenVerdict, error) {
	if !d.WriteAPI.Supported {
		return TokenUnchecked, nil
	}
	e := d.Endpoints()
	u, err := c.Resolve(Expand(e.VersionTarball, map[string]string{"name": ProbeName, "version": ProbeVersion}))
	if err != nil {
		return TokenUnchecked, err
	}
	newReq := func(ctx context.Context) (*http.Request, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodPut, u.String(), http.NoBody)
		if err != nil {
			return nil, err
		}
		req.Header = uploadHeader(e, emptyIntegrity, "none")
		return req, nil
	}
	// Every answer but 401, 429, 5xx and redirects says the token passed.
	passed := func(status int) bool {
		return status < 300 || status >= 400 && status < 500 && status != http.StatusUnauthorized && status != http.StatusTooManyRequests
	}
	_, err = c.do(ctx, newReq, 64<<10, passed)
	var se *StatusError
	switch {
	case errors.As(err, &se) && se.StatusCode == http.StatusUnauthorized:
		return TokenRefused, nil
	case err != nil:
		return TokenUnchecked, err
	}
	return TokenAccepted, nil
}
