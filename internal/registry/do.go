package registry

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

// TransportError: a request got no usable answer (connection refused or
// reset, timeout, certificate, stall).
type TransportError struct {
	Method, URL string // URL redacted
	Err         error
	raw         error // as net/http returned it, for retry classification
}

func (e *TransportError) Error() string { return fmt.Sprintf("%s %s: %v", e.Method, e.URL, e.Err) }
func (e *TransportError) Unwrap() error { return e.Err }

// streamAnswer as do's limit leaves an answer's body unread, in
// Response.Stream.
const streamAnswer = -1

// do runs one request with retries. newReq builds a fresh request (and
// body) per attempt; ok says which statuses are answers.
func (c *Client) do(ctx context.Context, newReq func(context.Context) (*http.Request, error), limit int64, ok func(int) bool) (*Response, error) {
	for attempt := 1; ; attempt++ {
		resp, raw, err := c.attempt(ctx, newReq, limit, ok)
		if err == nil {
			return resp, nil
		}
		var te *TransportError
		var classify error // nil: an answer, classified by its status
		if errors.As(err, &te) {
			classify = te.raw
		}
		if raw == nil && classify == nil || attempt >= c.attempts || !shouldRetry(ctx, raw, classify) {
			return nil, c.redact.Error(err)
		}
		wait := c.backoff(attempt, retryAfter(raw, time.Now()))
		c.tracef("retry %d/%d in %s after: %v", attempt, c.attempts-1, wait.Round(time.Millisecond), err)
		select {
		case <-ctx.Done():
			return nil, c.redact.Error(err)
		case <-time.After(wait):
		}
	}
}

// attempt sends one request. It returns the answer, or the raw response
// (body consumed) with its error, or a *TransportError.
func (c *Client) attempt(ctx context.Context, newReq func(context.Context) (*http.Request, error), limit int64, ok func(int) bool) (*Response, *http.Response, error) {
	req, err := newReq(ctx)
	if err != nil {
		return nil, nil, err
	}
	shown := c.redact.URL(req.URL)
	c.tracef("%s %s%s", req.Method, shown, c.describe(req))
	raw, err := c.hc.Do(req)
	var re *RedirectError
	if errors.As(err, &re) { // refused by checkRedirect: a complete message already
		return nil, nil, re
	}
	if err != nil {
		return nil, nil, &TransportError{Method: req.Method, URL: shown, Err: unwrapURLError(err), raw: err}
	}
	if limit == streamAnswer && ok(raw.StatusCode) { // the caller reads and closes it
		c.tracef("-> %s", raw.Status)
		return &Response{URL: shown, StatusCode: raw.StatusCode, Header: raw.Header, Stream: raw.Body}, raw, nil
	}
	defer raw.Body.Close()
	body, err := io.ReadAll(io.LimitReader(raw.Body, max(limit, 64<<10)+1))
	if err != nil {
		return nil, nil, &TransportError{Method: req.Method, URL: shown, Err: fmt.Errorf("reading the answer: %w", err), raw: err}
	}
	c.tracef("-> %s", raw.Status)
	resp := &Response{URL: shown, StatusCode: raw.StatusCode, Header: raw.Header, Body: body,
		ETag: raw.Header.Get("ETag"), LastModified: raw.Header.Get("Last-Modified")}
	switch {
	case ok(raw.StatusCode) && int64(len(body)) > limit:
		return nil, nil, &TooLargeError{Method: req.Method, URL: shown, Limit: limit}
	case ok(raw.StatusCode):
		return resp, raw, nil
	case raw.StatusCode >= 300 && raw.StatusCode < 400:
		return nil, raw, &RedirectError{Method: req.Method, From: shown, To: c.redact.String(cmp.Or(raw.Header.Get("Location"), "(no Location)")),
			StatusCode: raw.StatusCode, Reason: redirectReason(req.Method)}
	case raw.StatusCode == http.StatusNotFound && req.Method == http.MethodGet:
		return nil, raw, fmt.Errorf("%s %s: %w", req.Method, shown, ErrNotFound)
	}
	se := parseError(req.Method, shown, raw.StatusCode, raw.Header.Get("Content-Type"), body)
	se.Code, se.Message, se.Snippet = c.redact.String(se.Code), c.redact.String(se.Message), c.redact.String(se.Snippet)
	se.Invoked = c.invoked
	return nil, raw, se
}

// TooLargeError is an answer over the size ceiling of what was asked.
type TooLargeError struct {
	Method, URL string
	Limit       int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s %s: the answer is over %d bytes", e.Method, e.URL, e.Limit)
}

func redirectReason(method string) string {
	if method == http.MethodGet {
		return "a redirect wop does not follow"
	}
	return "wop never follows a redirect of an upload, which would carry the archive and credentials elsewhere"
}

// unwrapURLError drops net/http's *url.Error, whose message repeats the
// URL; the TransportError names the request itself.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// describe lists, for the trace, the headers a request carries and whether
// credentials go with it (they are never shown).
func (c *Client) describe(req *http.Request) string {
	var parts []string
	if req.ContentLength > 0 {
		parts = append(parts, fmt.Sprintf("%d bytes", req.ContentLength))
	}
	var names []string
	for k := range req.Header {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		parts = append(parts, k+": "+req.Header.Get(k))
	}
	creds := "(none)"
	if at := c.hc.Transport.(*authTransport); at.auth != nil && OriginOf(req.URL) == c.origin {
		creds = at.scheme + " " + redacted
	}
	parts = append(parts, "Authorization: "+creds)
	return " (" + strings.Join(parts, ", ") + ")"
}

func (c *Client) tracef(format string, args ...any) {
	if c.trace != nil {
		fmt.Fprintf(c.trace, "%s\n", c.redact.String(fmt.Sprintf(format, args...)))
	}
}
