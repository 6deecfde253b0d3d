package registry

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"time"
)

// Timeouts bound each phase of a request. None bounds the whole request:
// a large upload on a slow line takes as long as it takes while bytes keep
// moving, and only the command's --timeout ends it.
type Timeouts struct {
	Dial           time.Duration // TCP connect
	TLSHandshake   time.Duration
	ResponseHeader time.Duration // from the last body byte sent to the answer's headers
	ExpectContinue time.Duration // how long an upload waits for "100 Continue" before sending anyway
	// BodyStall is the longest wait for the next byte of a body, either way:
	// an upload the server stopped reading, or an answer that stopped coming.
	BodyStall time.Duration
}

// DefaultTimeouts are the production values.
var DefaultTimeouts = Timeouts{
	Dial:           30 * time.Second,
	TLSHandshake:   30 * time.Second,
	ResponseHeader: 2 * time.Minute, // a registry validates a 50 MB archive before answering
	ExpectContinue: 2 * time.Second,
	BodyStall:      60 * time.Second,
}

// NewTransport is the HTTP transport every wop request goes through:
// proxies from the environment, HTTP/2, and the phase timeouts.
func NewTransport(t Timeouts) http.RoundTripper {
	dialer := &net.Dialer{Timeout: t.Dial, KeepAlive: 30 * time.Second}
	base := &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           dialer.DialContext,
		ForceAttemptHTTP2:     true,
		TLSHandshakeTimeout:   t.TLSHandshake,
		ResponseHeaderTimeout: t.ResponseHeader,
		ExpectContinueTimeout: t.ExpectContinue,
		MaxIdleConns:          10,
		IdleConnTimeout:       90 * time.Second,
	}
	return &stallTransport{base: base, stall: t.BodyStall}
}

// StallError: no byte moved for the stall timeout.
type StallError struct {
	Stall time.Duration
	What  string // "upload" or "answer"
}

func (e *StallError) Error() string {
	return fmt.Sprintf("the %s stalled: no byte moved for %s", e.What, e.Stall)
}

// Timeout makes a stall a net.Error timeout, which is retried.
func (e *StallError) Timeout() bool   { return true }
func (e *StallError) Temporary() bool { return true }

var _ net.Error = (*StallError)(nil)

// stallTransport cancels a request whose body (sent or received) makes no
// progress for stall. It replaces http.Client.Timeout, which bounds the
// whole exchange and so fails any upload longer than it.
type stallTransport struct {
	base  http.RoundTripper
	stall time.Duration
}

func (t *stallTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if t.stall <= 0 {
		return t.base.RoundTrip(req)
	}
	ctx, cancel := context.WithCancelCause(req.Context())
	w := &watchdog{stall: t.stall, cancel: cancel}
	out := req.Clone(ctx)
	if req.Body != nil && req.Body != http.NoBody {
		out.Body = &watchedBody{ReadCloser: req.Body, w: w, what: "upload"}
	}
	resp, err := t.base.RoundTrip(out)
	w.disarm() // between the last body byte and the headers, ResponseHeader rules
	if err != nil {
		cancel(nil)
		return nil, stallCause(ctx, err)
	}
	resp.Body = &watchedBody{ReadCloser: resp.Body, w: w, what: "answer", done: func() { cancel(nil) }, ctx: ctx}
	w.arm("answer")
	return resp, nil
}

func stallCause(ctx context.Context, err error) error {
	var se *StallError
	if errors.As(context.Cause(ctx), &se) {
		return se
	}
	return err
}

// watchdog cancels the request when arm is not called again within stall.
type watchdog struct {
	mu     sync.Mutex
	timer  *time.Timer
	stall  time.Duration
	cancel context.CancelCauseFunc
}

func (w *watchdog) arm(what string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.timer != nil {
		w.timer.Reset(w.stall)
		return
	}
	w.timer = time.AfterFunc(w.stall, func() { w.cancel(&StallError{Stall: w.stall, What: what}) })
}

func (w *watchdog) disarm() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.timer != nil {
		w.timer.Stop()
		w.timer = nil
	}
}

// watchedBody re-arms the watchdog on every read; EOF and Close disarm it.
type watchedBody struct {
	io.ReadCloser
	w    *watchdog
	what string
	done func()
	ctx  context.Context
}

// maxStep bounds one read of a watched body, so that on a slow line the
// next read (the progress the watchdog sees) comes soon after the bytes of
// the last one left: one 32 KB read takes most of a second at 40 KB/s.
const maxStep = 8 << 10

func (b *watchedBody) Read(p []byte) (int, error) {
	p = p[:min(len(p), maxStep)]
	b.w.arm(b.what)
	n, err := b.ReadCloser.Read(p)
	if err != nil {
		b.w.disarm()
		if b.ctx != nil && err != io.EOF {
			err = stallCause(b.ctx, err)
		}
	} else if n > 0 {
		b.w.arm(b.what)
	}
	return n, err
}

func (b *watchedBody) Close() error {
	b.w.disarm()
	err := b.ReadCloser.Close()
	if b.done != nil {
		b.done()
	}
	return err
}

// authTransport sets User-Agent on every request and the registry's
// credentials only on requests to the registry's exact origin, so neither
// a redirect nor a URL from the discovery document can carry them away.
type authTransport struct {
	base      http.RoundTripper
	origin    Origin
	auth      func(*http.Request) // sets Authorization; nil without credentials
	scheme    string              // "Bearer" or "Basic", for the trace
	userAgent string
}

func (t *authTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	out := req.Clone(req.Context())
	out.Header.Del("Authorization")
	if t.userAgent != "" {
		out.Header.Set("User-Agent", t.userAgent)
	}
	if t.auth != nil && OriginOf(req.URL) == t.origin {
		t.auth(out)
	}
	return t.base.RoundTrip(out)
}
