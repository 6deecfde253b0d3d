package registry

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

const secret = "s3cret-client-token"

func noWait(int, time.Duration) time.Duration { return 0 }

// counting counts the attempts that reach the transport.
type counting struct {
	base http.RoundTripper
	n    atomic.Int32
}

func (c *counting) RoundTrip(r *http.Request) (*http.Response, error) {
	c.n.Add(1)
	return c.base.RoundTrip(r)
}

// trusting is a transport that trusts httptest's TLS certificate (every
// httptest TLS server shares it).
func trusting(srv *httptest.Server) http.RoundTripper {
	return srv.Client().Transport
}

func newClient(t *testing.T, o Options) *Client {
	t.Helper()
	if o.Backoff == nil {
		o.Backoff = noWait
	}
	c, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestOriginOf(t *testing.T) {
	same := []string{"https://Reg.example", "https://reg.example:443/x", "HTTPS://reg.example/"}
	for _, s := range same {
		u, _ := url.Parse(s)
		if OriginOf(u) != (Origin{"https", "reg.example", "443"}) {
			t.Errorf("%s: %+v", s, OriginOf(u))
		}
	}
	for _, s := range []string{"http://reg.example", "https://reg.example:8443", "https://other.example"} {
		u, _ := url.Parse(s)
		if OriginOf(u) == (Origin{"https", "reg.example", "443"}) {
			t.Errorf("%s has the registry's origin", s)
		}
	}
	for _, bad := range []string{"reg.example", "https://u:p@reg.example", "https://reg.example/path", "ftp://reg.example", "https://reg.example?x=1"} {
		if _, err := ParseOrigin(bad); err == nil {
			t.Errorf("ParseOrigin(%q) accepted", bad)
		}
	}
	if o, err := ParseOrigin("https://cdn.example:8443/"); err != nil || o.String() != "https://cdn.example:8443" {
		t.Errorf("ParseOrigin: %v %v", o, err)
	}
}

// TestResolveOrigins: URLs from the discovery document stay on the
// registry's origin unless allow-listed, and never downgrade to http.
func TestResolveOrigins(t *testing.T) {
	cdn, _ := ParseOrigin("https://cdn.example")
	plainCDN, _ := ParseOrigin("http://cdn.example")
	c := newClient(t, Options{Registry: "https://reg.example/base/", AllowOrigins: []Origin{cdn, plainCDN}})
	tests := []struct {
		ref, want, err string
	}{
		{"/v1/packs/a/-/1.0.0.tgz", "https://reg.example/base/v1/packs/a/-/1.0.0.tgz", ""},
		{"//evil.example/x", "https://reg.example/base/evil.example/x", ""},
		{"https://reg.example:443/keys/k.pub", "https://reg.example:443/keys/k.pub", ""},
		{"https://cdn.example/a.tgz", "https://cdn.example/a.tgz", ""},
		{"https://evil.example/a.tgz", "", "not on the registry's origin https://reg.example"},
		{"https://reg.example:8443/a.tgz", "", "not on the registry's origin"},
		{"http://reg.example/a.tgz", "", "wop never downgrades to http"},
		{"http://cdn.example/a.tgz", "", "wop never downgrades to http"},
		{"ftp://reg.example/a.tgz", "", "only https and http"},
		{"https://user:pw@reg.example/a.tgz", "", "credentials"},
	}
	for _, tt := range tests {
		u, err := c.Resolve(tt.ref)
		switch {
		case tt.err == "" && (err != nil || u.String() != tt.want):
			t.Errorf("Resolve(%q) = %v, %v; want %s", tt.ref, u, err, tt.want)
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("Resolve(%q) error %v; want %q", tt.ref, err, tt.err)
		case tt.err != "" && strings.Contains(err.Error(), "pw"):
			t.Errorf("Resolve(%q) printed the password: %v", tt.ref, err)
		}
	}
}

// TestTokenBoundToOrigin: the registry gets the token; an allow-listed
// origin the discovery document names, and a redirect target, do not.
func TestTokenBoundToOrigin(t *testing.T) {
	other := newRecorder(true)
	defer other.Close()
	var sawAuth atomic.Value
	reg := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sawAuth.Store(r.Header.Get("Authorization"))
		if r.URL.Path == "/moved" {
			http.Redirect(w, r, other.URL+"/elsewhere", http.StatusFound)
			return
		}
		io.WriteString(w, "{}")
	}))
	defer reg.Close()
	allowed, _ := ParseOrigin(other.URL)
	c := newClient(t, Options{Registry: reg.URL, Token: secret, AllowOrigins: []Origin{allowed}, Transport: trusting(reg)})
	ctx := context.Background()
	if _, err := c.Get(ctx, "/x", GetOptions{}); err != nil {
		t.Fatal(err)
	}
	if sawAuth.Load() != "Bearer "+secret {
		t.Errorf("registry got %q", sawAuth.Load())
	}
	if _, err := c.Get(ctx, other.URL+"/key.pub", GetOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Get(ctx, "/moved", GetOptions{}); err != nil {
		t.Fatal(err)
	}
	seen := other.Seen()
	if len(seen) != 2 {
		t.Fatalf("other origin saw %+v", seen)
	}
	for _, r := range seen {
		if r != "" {
			t.Errorf("token sent to another origin: %+v", r)
		}
	}
}

// TestGetRedirects: a GET follows a redirect within its origin (with the
// token) or to https (without); http elsewhere and downgrades are refused.
func TestGetRedirects(t *testing.T) {
	plain := newRecorder(false)
	defer plain.Close()
	secure := newRecorder(true)
	defer secure.Close()
	var mu sync.Mutex
	var auths []string
	reg := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		auths = append(auths, r.URL.Path+" "+r.Header.Get("Authorization"))
		mu.Unlock()
		switch r.URL.Path {
		case "/same":
			http.Redirect(w, r, "/target", http.StatusMovedPermanently)
		case "/to-https":
			http.Redirect(w, r, secure.URL+"/t", http.StatusTemporaryRedirect)
		case "/to-http":
			http.Redirect(w, r, plain.URL+"/t", http.StatusFound)
		case "/loop":
			http.Redirect(w, r, "/loop", http.StatusFound)
		default:
			io.WriteString(w, "ok")
		}
	}))
	defer reg.Close()
	c := newClient(t, Options{Registry: reg.URL, Token: secret, Transport: trusting(reg), MaxAttempts: 3})
	ctx := context.Background()
	if r, err := c.Get(ctx, "/same", GetOptions{}); err != nil || string(r.Body) != "ok" {
		t.Errorf("same origin: %v", err)
	}
	if auths[len(auths)-1] != "/target Bearer "+secret {
		t.Errorf("same-origin redirect lost the token: %v", auths)
	}
	if _, err := c.Get(ctx, "/to-https", GetOptions{}); err != nil {
		t.Errorf("to https: %v", err)
	}
	if s := secure.Seen(); len(s) != 1 || s[0] != "" {
		t.Errorf("https target: %+v", s)
	}
	_, err := c.Get(ctx, "/to-http", GetOptions{})
	var re *RedirectError
	if !errors.As(err, &re) || !strings.Contains(err.Error(), "downgrade from https to http") {
		t.Errorf("downgrade: %v", err)
	}
	if len(plain.Seen()) != 0 {
		t.Errorf("http target contacted: %+v", plain.Seen())
	}
	before := len(auths)
	if _, err := c.Get(ctx, "/loop", GetOptions{}); !errors.As(err, &re) {
		t.Errorf("loop: %v", err)
	}
	if n := len(auths) - before; n != maxRedirects+1 {
		t.Errorf("a redirect loop is not retried: %d requests", n)
	}
}

// TestPutRedirectsNeverFollowed: every redirect status of an upload, to
// another port, host or scheme, is an error; the target sees nothing.
func TestPutRedirectsNeverFollowed(t *testing.T) {
	plain := newRecorder(false)
	defer plain.Close()
	secure := newRecorder(true)
	defer secure.Close()
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(plain.URL, "http://"))
	targets := map[string]string{"port": plain.URL, "host": "http://localhost:" + port, "scheme": secure.URL}
	for _, status := range []int{301, 302, 303, 307, 308} {
		for what, target := range targets {
			t.Run(fmt.Sprintf("%d-%s", status, what), func(t *testing.T) {
				reg := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					w.Header().Set("Location", target+r.URL.Path)
					w.WriteHeader(status)
				}))
				defer reg.Close()
				c := newClient(t, Options{Registry: reg.URL, Token: secret, Transport: trusting(secure.Server), MaxAttempts: 3})
				_, err := c.Put(context.Background(), "/v1/packs/a/-/1.0.0.tgz", PutBody{Size: 3, Open: func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader("abc")), nil }})
				var re *RedirectError
				if !errors.As(err, &re) || re.StatusCode != status || !strings.Contains(err.Error(), "never follows a redirect of an upload") {
					t.Fatalf("err = %v", err)
				}
				if !strings.Contains(err.Error(), target) || !strings.Contains(re.Hint(), "nothing was published") {
					t.Errorf("the error does not say where to and what now: %v / %s", err, re.Hint())
				}
				if len(plain.Seen())+len(secure.Seen()) != 0 {
					t.Errorf("the target was contacted: %+v %+v", plain.Seen(), secure.Seen())
				}
			})
		}
	}
}

func TestRetryClassification(t *testing.T) {
	ctx := context.Background()
	t.Run("certificate error is not retried", func(t *testing.T) {
		srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
		srv.Config.ErrorLog = discardLog()
		defer srv.Close()
		tr := &counting{base: NewTransport(DefaultTimeouts)}
		c := newClient(t, Options{Registry: srv.URL, Transport: tr, MaxAttempts: 5})
		_, err := c.Get(ctx, DiscoveryPath, GetOptions{})
		var te *TransportError
		if !errors.As(err, &te) || !strings.Contains(err.Error(), "certificate") || tr.n.Load() != 1 {
			t.Errorf("%d attempts: %v", tr.n.Load(), err)
		}
	})
	statusCase := func(name string, statuses []int, wantAttempts int32, wantErr bool) {
		t.Run(name, func(t *testing.T) {
			var n atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				i := int(n.Add(1)) - 1
				if i < len(statuses) {
					w.Header().Set("Retry-After", "2")
					w.WriteHeader(statuses[i])
					return
				}
				io.WriteString(w, "{}")
			}))
			defer srv.Close()
			var waits []time.Duration
			c := newClient(t, Options{Registry: srv.URL, MaxAttempts: 5, Backoff: func(_ int, ra time.Duration) time.Duration { waits = append(waits, ra); return 0 }})
			_, err := c.Get(ctx, DiscoveryPath, GetOptions{})
			if (err != nil) != wantErr || n.Load() != wantAttempts {
				t.Errorf("%d attempts, err %v", n.Load(), err)
			}
			for _, w := range waits {
				if w != 2*time.Second {
					t.Errorf("Retry-After not passed to the backoff: %v", waits)
				}
			}
		})
	}
	statusCase("501 is not retried", []int{501}, 1, true)
	statusCase("503 is retried", []int{503}, 2, false)
	statusCase("429 and 502 are retried", []int{429, 502}, 3, false)
	statusCase("400 is not retried", []int{400}, 1, true)
	t.Run("reset connections are retried", func(t *testing.T) {
		var n atomic.Int32
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if n.Add(1) == 1 {
				conn, _, _ := w.(http.Hijacker).Hijack()
				conn.(*net.TCPConn).SetLinger(0)
				conn.Close()
				return
			}
			io.WriteString(w, "{}")
		}))
		defer srv.Close()
		c := newClient(t, Options{Registry: srv.URL, MaxAttempts: 3})
		if _, err := c.Get(ctx, DiscoveryPath, GetOptions{}); err != nil || n.Load() != 2 {
			t.Errorf("%d attempts: %v", n.Load(), err)
		}
	})
}

func TestRetryAfterParsing(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for v, want := range map[string]time.Duration{"3": 3 * time.Second, "": 0, "junk": 0, "-1": 0,
		now.Add(90 * time.Second).Format(http.TimeFormat): 90 * time.Second, now.Add(-time.Hour).Format(http.TimeFormat): 0} {
		resp := &http.Response{Header: http.Header{"Retry-After": {v}}}
		if got := retryAfter(resp, now); got != want {
			t.Errorf("Retry-After %q: %s, want %s", v, got, want)
		}
	}
}

// TestErrorsAreRedacted: a 401 that echoes the token, and userinfo in the
// registry URL, never reach a message.
func TestErrorsAreRedacted(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprintf(w, `{"error":"unauthorized","message":"bad credentials %s for %s"}`, r.Header.Get("Authorization"), r.URL)
	}))
	defer srv.Close()
	withUser := strings.Replace(srv.URL, "http://", "http://alice:pa55w0rd@", 1)
	for _, o := range []Options{{Registry: srv.URL, Token: secret}, {Registry: withUser + "?access_token=qs-secret"}} {
		c := newClient(t, o)
		_, err := c.Get(context.Background(), "/x?sig=qs-signature", GetOptions{})
		var se *StatusError
		if !errors.As(err, &se) || se.StatusCode != 401 {
			t.Fatalf("err = %v", err)
		}
		for _, leak := range []string{secret, "pa55w0rd", "alice:", "YWxpY2U6cGE1NXcwcmQ", "qs-signature", "qs-secret"} {
			if strings.Contains(err.Error(), leak) || strings.Contains(se.Message, leak) || strings.Contains(c.Base(), leak) {
				t.Errorf("%q leaked: %v (base %s)", leak, err, c.Base())
			}
		}
	}
}

func TestRedactor(t *testing.T) {
	r := NewRedactor("tok/en+1")
	r.AddURL("https://bob:p%40ss@reg.example")
	in := "tok/en+1 tok%2Fen%2B1 https://x:y@h/p?a=1&api_key=K&token=T#f p@ss Ym9iOnBAc3M= plain https://h/p?page=2"
	got := r.String(in)
	want := "[redacted] [redacted] https://[redacted]@h/p?a=1&api_key=[redacted]&token=[redacted]#f [redacted] [redacted] plain https://h/p?page=2"
	if got != want {
		t.Errorf("\n got %s\nwant %s", got, want)
	}
	var b strings.Builder
	w := r.Writer(&b)
	fmt.Fprintf(w, "token %s\n", "tok/en+1")
	if b.String() != "token [redacted]\n" {
		t.Errorf("writer: %q", b.String())
	}
	err := r.Error(fmt.Errorf("wrap: %w", &StatusError{Method: "GET", URL: "u", StatusCode: 401, Message: "tok/en+1"}))
	var se *StatusError
	if !errors.As(err, &se) || strings.Contains(err.Error(), "tok/en") || !strings.Contains(err.(interface{ Hint() string }).Hint(), "token") {
		t.Errorf("error: %v", err)
	}
}

// TestConditionalGet: ETag and Last-Modified go out as If-None-Match and
// If-Modified-Since; a 304 is an answer, not an error.
func TestConditionalGet(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("If-None-Match") == `"v1"` && r.Header.Get("If-Modified-Since") == "Mon, 02 Jan 2026 00:00:00 GMT" {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("ETag", `"v1"`)
		w.Header().Set("Last-Modified", "Mon, 02 Jan 2026 00:00:00 GMT")
		io.WriteString(w, "body")
	}))
	defer srv.Close()
	c := newClient(t, Options{Registry: srv.URL})
	first, err := c.Get(context.Background(), "/index.json", GetOptions{})
	if err != nil || first.NotModified() || first.ETag != `"v1"` {
		t.Fatalf("%+v %v", first, err)
	}
	again, err := c.Get(context.Background(), "/index.json", GetOptions{ETag: first.ETag, LastModified: first.LastModified})
	if err != nil || !again.NotModified() {
		t.Fatalf("%+v %v", again, err)
	}
}

func TestGetBoundsTheAnswer(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, strings.Repeat("x", 2000))
	}))
	defer srv.Close()
	c := newClient(t, Options{Registry: srv.URL})
	if _, err := c.Get(context.Background(), "/big", GetOptions{MaxBytes: 1000}); err == nil || !strings.Contains(err.Error(), "over 1000 bytes") {
		t.Errorf("err = %v", err)
	}
}

func TestUserAgentAndBasicFromUserinfo(t *testing.T) {
	var ua, auth string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ua, auth = r.Header.Get("User-Agent"), r.Header.Get("Authorization")
	}))
	defer srv.Close()
	c := newClient(t, Options{Registry: strings.Replace(srv.URL, "http://", "http://alice:pw@", 1), UserAgent: "wop/1.2.3"})
	if _, err := c.Get(context.Background(), "/", GetOptions{}); err != nil {
		t.Fatal(err)
	}
	if ua != "wop/1.2.3" || auth != "Basic YWxpY2U6cHc=" || strings.Contains(c.Base(), "alice") {
		t.Errorf("User-Agent %q, Authorization %q, base %s", ua, auth, c.Base())
	}
}

// recorder is the "other server": it notes what it is sent and answers
// 200, as a naive server would. (registrytest.Recorder, which imports this
// package, does the same for the command tests.)
type recorder struct {
	*httptest.Server
	mu    sync.Mutex
	auths []string
}

func newRecorder(tls bool) *recorder {
	r := &recorder{}
	h := http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		io.Copy(io.Discard, req.Body)
		r.mu.Lock()
		r.auths = append(r.auths, req.Header.Get("Authorization"))
		r.mu.Unlock()
		io.WriteString(w, "{}")
	})
	if tls {
		r.Server = httptest.NewTLSServer(h)
	} else {
		r.Server = httptest.NewServer(h)
	}
	return r
}

// Seen lists the Authorization header of each request received.
func (r *recorder) Seen() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.auths...)
}

func discardLog() *log.Logger { return log.New(io.Discard, "", 0) }

// TestPutSuccessIsOnly200Or201: any other answer, even a 2xx, is an error
// that says to check before publishing again.
func TestPutSuccessIsOnly200Or201(t *testing.T) {
	for _, status := range []int{202, 204, 206} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body)
			w.WriteHeader(status)
		}))
		c := newClient(t, Options{Registry: srv.URL, Token: secret, MaxAttempts: 3})
		_, err := c.Put(context.Background(), "/x.tgz", body(3))
		var se *StatusError
		if !errors.As(err, &se) || se.StatusCode != status || !strings.Contains(se.Hint(), "wop pack verify NAME@VERSION") {
			t.Errorf("%d: %v", status, err)
		}
		srv.Close()
	}
}

// TestOpenStreams: Open leaves a large answer unread for the caller,
// retries a 503 before the answer, and wraps a 404 in ErrNotFound.
func TestOpenStreams(t *testing.T) {
	var n atomic.Int32
	big := strings.Repeat("x", 2*maxDocument)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/missing.tgz":
			http.NotFound(w, r)
		case n.Add(1) == 1:
			w.WriteHeader(http.StatusServiceUnavailable)
		default:
			io.WriteString(w, big)
		}
	}))
	defer srv.Close()
	c := newClient(t, Options{Registry: srv.URL, MaxAttempts: 3})
	rc, err := c.Open(context.Background(), "/a.tgz")
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(rc)
	rc.Close()
	if err != nil || len(got) != len(big) || n.Load() != 2 {
		t.Errorf("%d bytes after %d attempts: %v", len(got), n.Load(), err)
	}
	if _, err := c.Open(context.Background(), "/missing.tgz"); !errors.Is(err, ErrNotFound) {
		t.Errorf("404: %v", err)
	}
}

// TestRedactorShortSecret: with a one-letter token every message stays
// readable: nothing is replaced twice ("[redac[redacted]ed]"), words that
// hold the letter are left alone, and the token is hidden wherever it
// stands alone (a header, a query value, a quoted string, a path segment).
func TestRedactorShortSecret(t *testing.T) {
	r := NewRedactor("t")
	r.AddURL("https://u:t@reg.example")
	for in, want := range map[string]string{
		"PUT https://reg.example/v1/packs/community.acme.demo/-/1.0.0.tgz: 401 unauthorized: invalid token": "PUT https://reg.example/v1/packs/community.acme.demo/-/1.0.0.tgz: 401 unauthorized: invalid token",
		`bad credentials "Bearer t" for /x?token=t&sort=date`:                                               `bad credentials "Bearer [redacted]" for /x?token=[redacted]&sort=date`,
		"https://u:t@reg.example/t/x: the registry's origin":                                                "https://[redacted]@reg.example/[redacted]/x: the registry's origin",
		"t":                       "[redacted]",
		"Basic dTp0 and dTp0x":    "Basic [redacted] and dTp0x",
		"already [redacted] text": "already [redacted] text",
		"tête-à-tête t.":          "tête-à-tête [redacted].",
	} {
		if got := r.String(in); got != want {
			t.Errorf("\n  in %s\n got %s\nwant %s", in, got, want)
		}
	}
	// Whatever one character the token is (a digit, a slash, a dot, a
	// colon, a dash), the messages wop prints about a refused upload stay
	// as they were, and the token is hidden where it stands alone.
	trace := "PUT http://127.0.0.1:42481/v1/packs/vendor.acme.tools/-/0.3.0.tgz (991 bytes, Content-Type: application/gzip, X-Pack-Sha256: sha256-gJ9z=, Authorization: Bearer [redacted])"
	refusal := "wop: PUT http://127.0.0.1:42481/v1/packs/vendor.acme.tools/-/0.3.0.tgz: 401 Unauthorized: unauthorized: invalid token"
	hint := "hint: the token is missing or not accepted: set WOP_TOKEN, pass --token-stdin, or run 'wop login --registry URL'"
	for _, secret := range []string{"1", "0", "/", ".", ":", "-", "redacted"} {
		r := NewRedactor(secret)
		for _, msg := range []string{trace, refusal, hint, "-> 401 Unauthorized"} {
			if got := r.String(msg); got != msg {
				t.Errorf("token %q:\n  in %s\n got %s", secret, msg, got)
			}
		}
		if got := r.String(`invalid token (got "Bearer ` + secret + `")`); got != `invalid token (got "Bearer [redacted]")` {
			t.Errorf("token %q standing alone: %s", secret, got)
		}
	}
	// The longest secret wins where two start at one place.
	r2 := NewRedactor("ab", "abcdefghij")
	if got := r2.String("x abcdefghij ab abc"); got != "x [redacted] [redacted] abc" {
		t.Errorf("longest first: %s", got)
	}
}

// TestNoCredentialsInTheClear: a token or a password goes over https, or
// over http only to a loopback address; a plain-http registry across a
// network gets no client at all with credentials, and the refusal prints
// neither.
func TestNoCredentialsInTheClear(t *testing.T) {
	for _, tt := range []struct {
		url   string
		token Token
		ok    bool
	}{
		{"https://registry.example.test", "tok-123456", true},
		{"http://127.0.0.1:8080", "tok-123456", true},
		{"http://localhost:8080", "tok-123456", true},
		{"http://[::1]:8080", "tok-123456", true},
		{"http://registry.example.test", "", true}, // nothing to leak
		{"http://registry.example.test", "tok-123456", false},
		{"http://192.0.2.2:18085", "tok-123456", false},
		{"http://alice:pa55w0rd@registry.example.test", "", false},
	} {
		_, err := New(Options{Registry: tt.url, Token: tt.token})
		if (err == nil) != tt.ok {
			t.Errorf("%s with token %q: err %v, want ok %v", tt.url, tt.token, err, tt.ok)
		}
		if err != nil && (!strings.Contains(err.Error(), "only over https") || strings.Contains(err.Error(), "pa55w0rd") || strings.Contains(err.Error(), "tok-123456")) {
			t.Errorf("%s: %v", tt.url, err)
		}
	}
}
