package registry

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// maxRetryAfter caps how long a Retry-After may make wop wait.
const maxRetryAfter = time.Minute

// DefaultBackoff is capped exponential backoff with full jitter, at least
// what Retry-After asks (capped at a minute).
func DefaultBackoff(n int, retryAfter time.Duration) time.Duration {
	d := min(time.Duration(1<<min(n-1, 5))*500*time.Millisecond, 10*time.Second)
	d = time.Duration(rand.Int64N(int64(d)) + 1)
	return max(d, min(retryAfter, maxRetryAfter))
}

// shouldRetry classifies one attempt's failure as go-retryablehttp does
// (its DefaultRetryPolicy decides): transport resets, timeouts, 429 and
// 5xx are retried; certificate, scheme and invalid-header errors and 501
// are not. wop's own refusals (redirects, origins) are never retried, nor
// is anything after the context ended.
func shouldRetry(ctx context.Context, resp *http.Response, err error) bool {
	var re *RedirectError
	var oe *OriginError
	if errors.As(err, &re) || errors.As(err, &oe) {
		return false
	}
	retry, _ := retryablehttp.DefaultRetryPolicy(ctx, resp, err)
	return retry
}

// retryAfter reads a Retry-After header in seconds or as an HTTP date.
func retryAfter(resp *http.Response, now time.Time) time.Duration {
	if resp == nil {
		return 0
	}
	v := resp.Header.Get("Retry-After")
	if secs, err := strconv.Atoi(v); err == nil && secs > 0 {
		return time.Duration(secs) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0)
	}
	return 0
}
