package registry

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/wop-cli/wop/internal/invocation"
)

// Options configure a Client.
type Options struct {
	// Registry is the registry's root URL as configured. Userinfo in it
	// (https://user:pw@host) is used as Basic credentials for the
	// registry's origin when there is no Token, and never printed.
	Registry string
	// Token is the bearer token, sent only to the registry's origin.
	Token Token
	// AllowOrigins are other origins URLs in the discovery document may
	// name (a CDN for archives, a key server). Credentials never go there.
	AllowOrigins []Origin
	// UserAgent is sent with every request: "wop/<version>".
	UserAgent string
	// Transport carries the requests; nil is NewTransport(DefaultTimeouts).
	Transport http.RoundTripper
	// MaxAttempts bounds the tries of each request (0 means 1).
	MaxAttempts int
	// Backoff is the wait before retry n (1-based), given the server's
	// Retry-After (0 when absent); nil is DefaultBackoff.
	Backoff func(n int, retryAfter time.Duration) time.Duration
	// Trace, when set, gets one redacted line per request, answer and retry.
	Trace io.Writer
	// Redactor, when set, is shared with the caller's messages; the client
	// teaches it the token and the URL's credentials.
	Redactor *Redactor
	// Invoked is the command that started wop: the hints of the errors
	// the client returns name it.
	Invoked invocation.Name
}

// Client is the one HTTP client for everything wop asks of a registry.
// Credentials are bound to the registry's origin, redirects are followed
// only when safe, failures that may pass are retried, and every message
// it builds is redacted.
type Client struct {
	base     *url.URL // the registry root, without userinfo or trailing slash
	origin   Origin
	allow    []Origin
	hc       *http.Client
	attempts int
	backoff  func(int, time.Duration) time.Duration
	trace    io.Writer
	redact   *Redactor
	invoked  invocation.Name
}

// New builds a Client for one registry.
func New(o Options) (*Client, error) {
	u, err := url.Parse(o.Registry)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return nil, fmt.Errorf("registry URL %q: want an http(s) URL", NewRedactor().String(o.Registry))
	}
	c := &Client{allow: o.AllowOrigins, attempts: max(o.MaxAttempts, 1), backoff: o.Backoff, trace: o.Trace, redact: o.Redactor, invoked: o.Invoked}
	if c.redact == nil {
		c.redact = NewRedactor()
	}
	c.redact.Add(string(o.Token))
	c.redact.addUserinfo(u.User)
	if c.backoff == nil {
		c.backoff = DefaultBackoff
	}
	userinfo := u.User
	if (o.Token != "" || userinfo != nil) && !SafeForCredentials(u) {
		return nil, fmt.Errorf("registry URL %s: wop sends credentials only over https, or over http to this machine (localhost, 127.0.0.1, ::1), never in the clear across a network; use the registry's https URL", c.redact.URL(u))
	}
	u.User, u.RawQuery, u.Fragment = nil, "", ""
	u.Path = strings.TrimSuffix(u.Path, "/")
	u.RawPath = ""
	c.base, c.origin = u, OriginOf(u)
	base := o.Transport
	if base == nil {
		base = NewTransport(DefaultTimeouts)
	}
	at := &authTransport{base: base, origin: c.origin, userAgent: o.UserAgent}
	switch {
	case o.Token != "":
		at.auth, at.scheme = func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+string(o.Token)) }, "Bearer"
	case userinfo != nil:
		pw, _ := userinfo.Password()
		at.auth, at.scheme = func(r *http.Request) { r.SetBasicAuth(userinfo.Username(), pw) }, "Basic"
	}
	c.hc = &http.Client{Transport: at, CheckRedirect: c.checkRedirect}
	return c, nil
}

// SafeForCredentials says whether a token or password may go to u: over
// https, or over http only to a loopback address, which never leaves the
// machine.
func SafeForCredentials(u *url.URL) bool {
	if u.Scheme == "https" {
		return true
	}
	host := u.Hostname()
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Base is the registry URL for display: no userinfo, no trailing slash.
func (c *Client) Base() string { return c.base.String() }

// Resolve makes a reference from the registry (a path, or a URL from its
// discovery document) absolute, and refuses URLs on another origin that is
// not allow-listed, and any downgrade from https to http.
func (c *Client) Resolve(ref string) (*url.URL, error) {
	if !strings.Contains(ref, "://") {
		// Joined as text, so the escaping Expand did (a %2F in a name)
		// survives and a value can never add a path level.
		u, err := url.Parse(c.base.String() + "/" + strings.TrimLeft(ref, "/"))
		if err != nil {
			return nil, fmt.Errorf("registry path %q: %w", c.redact.String(ref), err)
		}
		if OriginOf(u) != c.origin {
			return nil, &OriginError{URL: c.redact.URL(u), Registry: c.origin, Reason: "the path escapes the registry's origin"}
		}
		return u, nil
	}
	u, err := url.Parse(ref)
	if err != nil {
		return nil, fmt.Errorf("URL %q from the registry: %w", c.redact.String(ref), err)
	}
	return u, c.checkOrigin(u)
}

// checkOrigin is the rule for absolute URLs the registry names.
func (c *Client) checkOrigin(u *url.URL) error {
	o := OriginOf(u)
	switch {
	case o.Scheme != "https" && o.Scheme != "http":
		return &OriginError{URL: c.redact.URL(u), Registry: c.origin, Reason: fmt.Sprintf("scheme %q: only https and http are used", u.Scheme)}
	case c.origin.Scheme == "https" && o.Scheme == "http":
		return &OriginError{URL: c.redact.URL(u), Registry: c.origin, Reason: fmt.Sprintf("plain http, but the registry %s is https: wop never downgrades to http", c.origin)}
	case u.User != nil:
		return &OriginError{URL: c.redact.URL(u), Registry: c.origin, Reason: "a URL with credentials in it"}
	case o == c.origin:
		return nil
	}
	for _, a := range c.allow {
		if a == o {
			return nil
		}
	}
	return &OriginError{URL: c.redact.URL(u), Registry: c.origin, Reason: fmt.Sprintf("on %s, not on the registry's origin %s", o, c.origin)}
}

// RedirectError is a redirect wop would not follow.
type RedirectError struct {
	Method     string
	From, To   string // redacted
	StatusCode int
	Reason     string
}

func (e *RedirectError) Error() string {
	return fmt.Sprintf("%s %s: the registry answered %d %s, redirecting to %s: %s",
		e.Method, e.From, e.StatusCode, http.StatusText(e.StatusCode), e.To, e.Reason)
}

// Hint says what to do about it.
func (e *RedirectError) Hint() string {
	if e.Method == http.MethodPut {
		return "nothing was published; if the registry moved, pass its new URL with --registry (after checking it is the registry you mean)"
	}
	return "if the registry moved, pass its new URL with --registry; if it serves files from another https origin, allow that with --allow-origin"
}

// maxRedirects bounds a chain of redirects of one GET.
const maxRedirects = 5

// checkRedirect follows a GET's redirect only within its origin or to
// https, and never a redirect of a request that carried a body (Go would
// turn a redirected PUT into a GET and report the GET's answer).
func (c *Client) checkRedirect(req *http.Request, via []*http.Request) error {
	first, prev := via[0], via[len(via)-1]
	status := 0
	if req.Response != nil {
		status = req.Response.StatusCode
	}
	refuse := func(reason string) error {
		return &RedirectError{Method: first.Method, From: c.redact.URL(first.URL), To: c.redact.URL(req.URL), StatusCode: status, Reason: reason}
	}
	switch {
	case first.Method != http.MethodGet && first.Method != http.MethodHead:
		return refuse("wop never follows a redirect of an upload, which would carry the archive and credentials elsewhere")
	case len(via) > maxRedirects:
		return refuse(fmt.Sprintf("more than %d redirects", maxRedirects))
	case OriginOf(prev.URL).Scheme == "https" && req.URL.Scheme != "https":
		return refuse("a downgrade from https to http")
	case OriginOf(req.URL) != OriginOf(prev.URL) && req.URL.Scheme != "https":
		return refuse("another origin over plain http")
	}
	return nil
}

// Response is a registry's answer, read whole.
type Response struct {
	URL          string // redacted
	StatusCode   int
	Header       http.Header
	Body         []byte
	ETag         string // for If-None-Match next time
	LastModified string // for If-Modified-Since next time
	// Stream is the unread body of an answer from Open; the caller closes it.
	Stream io.ReadCloser
}

// NotModified: the conditional request's copy is still current.
func (r *Response) NotModified() bool { return r.StatusCode == http.StatusNotModified }

// GetOptions tune one GET.
type GetOptions struct {
	// ETag and LastModified, from an earlier Response, make the request
	// conditional: a 304 comes back as a Response with NotModified true.
	ETag, LastModified string
	// MaxBytes bounds the answer's body; 0 is 4 MiB (JSON documents).
	MaxBytes int64
}

// maxDocument bounds JSON documents read from a registry.
const maxDocument = 4 << 20

// ErrNotFound is a 404 from the registry.
var ErrNotFound = errors.New("not found")

// Get fetches ref (a registry path or a URL from the discovery document),
// retrying what may pass. 200 and 304 are answers; 404 wraps ErrNotFound;
// anything else is a *StatusError.
func (c *Client) Get(ctx context.Context, ref string, o GetOptions) (*Response, error) {
	u, err := c.Resolve(ref)
	if err != nil {
		return nil, err
	}
	limit := o.MaxBytes
	if limit <= 0 {
		limit = maxDocument
	}
	newReq := func(ctx context.Context) (*http.Request, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
		if err != nil {
			return nil, err
		}
		if o.ETag != "" {
			req.Header.Set("If-None-Match", o.ETag)
		}
		if o.LastModified != "" {
			req.Header.Set("If-Modified-Since", o.LastModified)
		}
		return req, nil
	}
	resp, err := c.do(ctx, newReq, limit, func(status int) bool { return status == http.StatusOK || status == http.StatusNotModified })
	if err != nil {
		return nil, err
	}
	return resp, nil
}

// Open fetches ref for streaming: the answer's body is returned unread, for
// the caller to read and close. Retries cover the request up to the
// answer's headers; 404 wraps ErrNotFound.
func (c *Client) Open(ctx context.Context, ref string) (io.ReadCloser, error) {
	u, err := c.Resolve(ref)
	if err != nil {
		return nil, err
	}
	newReq := func(ctx context.Context) (*http.Request, error) {
		return http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	}
	resp, err := c.do(ctx, newReq, streamAnswer, func(status int) bool { return status == http.StatusOK })
	if err != nil {
		return nil, err
	}
	return resp.Stream, nil
}

// GetJSON fetches ref and decodes its JSON answer into v.
func (c *Client) GetJSON(ctx context.Context, ref string, v any) error {
	resp, err := c.Get(ctx, ref, GetOptions{})
	if err != nil {
		return err
	}
	if err := json.Unmarshal(resp.Body, v); err != nil {
		return c.redact.Error(fmt.Errorf("GET %s: the answer is not JSON: %w", resp.URL, err))
	}
	return nil
}

// PutBody is an upload: Open is called once per attempt, so a retry sends
// the whole body again.
type PutBody struct {
	Open   func() (io.ReadCloser, error)
	Size   int64
	Header http.Header
}

// Put uploads to ref (a registry path or an allowed URL). It sends
// "Expect: 100-continue", so a registry that refuses the credentials says
// so before the body is sent. Only 200 and 201 are answers; a redirect is
// a *RedirectError, never followed; other statuses are *StatusError.
func (c *Client) Put(ctx context.Context, ref string, body PutBody) (*Response, error) {
	u, err := c.Resolve(ref)
	if err != nil {
		return nil, err
	}
	newReq := func(ctx context.Context) (*http.Request, error) {
		r, err := body.Open()
		if err != nil {
			return nil, err
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodPut, u.String(), r)
		if err != nil {
			r.Close()
			return nil, err
		}
		req.ContentLength = body.Size
		for k, v := range body.Header {
			req.Header[k] = v
		}
		req.Header.Set("Expect", "100-continue")
		return req, nil
	}
	return c.do(ctx, newReq, 64<<10, func(status int) bool { return status == http.StatusOK || status == http.StatusCreated })
}
