package registry

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"strconv"
	"time"
)

// Token is a registry bearer token. It prints as [redacted] in every verb,
// so no log line or error can leak it.
type Token string

func (Token) String() string   { return "[redacted]" }
func (Token) GoString() string { return "[redacted]" }

// Upload is one archive to PUT.
type Upload struct {
	Name, Version string
	Path          string // the .tgz on disk, streamed on each attempt
	Size          int64
	Integrity     string // sha256-<base64> of the file
	SigningMethod string // manual, sigstore or none
}

// Outcome is what a successful PUT did.
type Outcome int

// The successful answers.
const (
	Published    Outcome = iota // 201: a new version
	AlreadyThere                // 200: these exact bytes were already published
)

// Uploader PUTs archives with retries. The policy lives in fields, as in
// go-retryablehttp, so tests can make backoff instant.
type Uploader struct {
	Client      *Client
	Token       Token
	MaxAttempts int // at least 1
	// Backoff is the wait before retry attempt n (1-based), given the
	// server's Retry-After (0 when absent).
	Backoff func(n int, retryAfter time.Duration) time.Duration
	// Body wraps the file reader of each attempt, e.g. with a progress bar.
	Body func(r io.Reader, size int64) io.Reader
	// Trace, when set, receives one line per request and answer, with the
	// Authorization header redacted.
	Trace io.Writer
}

// DefaultBackoff is capped exponential backoff with full jitter, at least
// what Retry-After asks (capped at a minute).
func DefaultBackoff(n int, retryAfter time.Duration) time.Duration {
	d := min(time.Duration(1<<min(n-1, 5))*500*time.Millisecond, 10*time.Second)
	d = time.Duration(rand.Int64N(int64(d)) + 1)
	return max(d, min(retryAfter, time.Minute))
}

// retryable reports whether an attempt's failure may go away by itself. A
// PUT is safe to repeat: an identical re-upload answers 200.
func retryable(resp *http.Response, err error) bool {
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return false
		}
		var ne net.Error
		return errors.As(err, &ne) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) || isConnReset(err)
	}
	return resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500
}

func isConnReset(err error) bool {
	var oe *net.OpError
	return errors.As(err, &oe)
}

func retryAfter(resp *http.Response) time.Duration {
	if resp == nil {
		return 0
	}
	v := resp.Header.Get("Retry-After")
	if secs, err := strconv.Atoi(v); err == nil {
		return time.Duration(secs) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		return time.Until(t)
	}
	return 0
}

// Put uploads u to the tarball endpoint, retrying what may pass.
func (up *Uploader) Put(ctx context.Context, e Endpoints, u Upload) (Outcome, error) {
	target := up.Client.resolve(Expand(e.VersionTarball, map[string]string{"name": u.Name, "version": u.Version}))
	var lastErr error
	for attempt := 1; attempt <= max(up.MaxAttempts, 1); attempt++ {
		resp, err := up.attempt(ctx, target, e, u)
		if err == nil && resp.StatusCode < 300 {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return AlreadyThere, nil
			}
			return Published, nil
		}
		if err != nil {
			lastErr = fmt.Errorf("PUT %s: %w", target, err)
		} else {
			body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
			resp.Body.Close()
			lastErr = parseError(http.MethodPut, target, resp.StatusCode, resp.Header.Get("Content-Type"), body)
		}
		if !retryable(resp, err) || attempt == max(up.MaxAttempts, 1) {
			break
		}
		wait := up.Backoff(attempt, retryAfter(resp))
		up.trace("retry %d/%d in %s after: %v", attempt, up.MaxAttempts-1, wait.Round(time.Millisecond), lastErr)
		select {
		case <-ctx.Done():
			return 0, ctx.Err()
		case <-time.After(wait):
		}
	}
	return 0, lastErr
}

func (up *Uploader) attempt(ctx context.Context, target string, e Endpoints, u Upload) (*http.Response, error) {
	f, err := os.Open(u.Path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var body io.Reader = f
	if up.Body != nil {
		body = up.Body(f, u.Size)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, target, body)
	if err != nil {
		return nil, err
	}
	req.ContentLength = u.Size
	req.Header.Set("Content-Type", "application/gzip")
	integrityHeader := "X-Pack-Sha256"
	if e.V2 {
		integrityHeader = "OpenWOP-Pack-Sha256"
	}
	req.Header.Set(integrityHeader, u.Integrity)
	req.Header.Set("X-Pack-Signing-Method", u.SigningMethod)
	if up.Token != "" {
		req.Header.Set("Authorization", "Bearer "+string(up.Token))
	}
	up.trace("PUT %s (%d bytes) Content-Type: application/gzip, %s: %s, Authorization: %s", target, u.Size, integrityHeader, u.Integrity, redactedAuth(up.Token))
	resp, err := up.Client.HTTP.Do(req)
	if err == nil {
		up.trace("-> %s", resp.Status)
	}
	return resp, err
}

func redactedAuth(t Token) string {
	if t == "" {
		return "(none)"
	}
	return "Bearer [redacted]"
}

func (up *Uploader) trace(format string, args ...any) {
	if up.Trace != nil {
		fmt.Fprintf(up.Trace, format+"\n", args...)
	}
}

// VersionManifest GETs a version's served manifest; found is false on 404.
func (c *Client) VersionManifest(ctx context.Context, e Endpoints, name, version string) (body []byte, found bool, err error) {
	body, err = c.get(ctx, Expand(e.VersionManifest, map[string]string{"name": name, "version": version}))
	if errors.Is(err, ErrNotFound) {
		return nil, false, nil
	}
	return body, err == nil, err
}
