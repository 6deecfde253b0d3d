package sigstorehelper

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/wop-cli/wop/internal/registry"
)

// ErrNoIDToken means keyless signing found no OIDC identity token anywhere.
var ErrNoIDToken = errors.New("keyless signing needs an OIDC identity token: --identity-token, SIGSTORE_ID_TOKEN, or in GitHub Actions 'permissions: id-token: write'")

// ActionsTokenError is GitHub Actions' token service refusing or failing
// to give a token (the job usually lacks 'permissions: id-token: write').
type ActionsTokenError struct{ Err error }

func (e *ActionsTokenError) Error() string { return "GitHub Actions identity token: " + e.Err.Error() }
func (e *ActionsTokenError) Unwrap() error { return e.Err }

// TokenSource says where FindIDToken looks.
type TokenSource struct {
	Flag      string // --identity-token
	Getenv    func(string) string
	UserAgent string
	Transport http.RoundTripper
}

// FindIDToken finds the OIDC token for keyless signing: the flag,
// $SIGSTORE_ID_TOKEN, or GitHub Actions' ambient token (audience
// "sigstore"), asked of the token service with the runtime token, which
// goes to that service's own origin only. The token is never printed.
func FindIDToken(ctx context.Context, s TokenSource) (IDToken, error) {
	if s.Flag != "" {
		return IDToken(s.Flag), nil
	}
	if t := s.Getenv("SIGSTORE_ID_TOKEN"); t != "" {
		return IDToken(t), nil
	}
	url, bearer := s.Getenv("ACTIONS_ID_TOKEN_REQUEST_URL"), s.Getenv("ACTIONS_ID_TOKEN_REQUEST_TOKEN")
	if url == "" || bearer == "" {
		return "", ErrNoIDToken
	}
	sep := "?"
	if strings.Contains(url, "?") {
		sep = "&"
	}
	c, err := registry.New(registry.Options{Registry: url, Token: registry.Token(bearer), UserAgent: s.UserAgent,
		Transport: s.Transport, MaxAttempts: 3})
	if err != nil {
		return "", fmt.Errorf("GitHub Actions identity token: ACTIONS_ID_TOKEN_REQUEST_URL: %w", err)
	}
	resp, err := c.Get(ctx, url+sep+"audience=sigstore", registry.GetOptions{MaxBytes: 1 << 20})
	if err != nil {
		return "", &ActionsTokenError{err}
	}
	var body struct {
		Value string `json:"value"`
	}
	if err := json.Unmarshal(resp.Body, &body); err != nil || body.Value == "" {
		return "", errors.New("GitHub Actions identity token: no token in the answer")
	}
	return IDToken(body.Value), nil
}
