package registry

import (
	"context"
	"errors"
	"testing"
)

// countingFetcher serves one body and counts the requests; with down set
// it cannot be reached.
type countingFetcher struct {
	body  string
	down  bool
	calls int
}

func (f *countingFetcher) Get(_ context.Context, ref string, _ GetOptions) (*Response, error) {
	f.calls++
	if f.down {
		return nil, errors.New("dial tcp: connection refused")
	}
	return &Response{URL: ref, StatusCode: 200, Body: []byte(f.body)}, nil
}

func TestCacheImmutableAndValid(t *testing.T) {
	const url = "https://reg.example/a.tgz"
	dir := t.TempDir()
	want := func(b []byte) bool { return string(b) == "archive bytes" }
	f := &countingFetcher{body: "archive bytes"}
	c := &Cache{Dir: dir, Fetch: f}
	for range 2 {
		got, err := c.Get(t.Context(), url, Policy{Immutable: true, Valid: want})
		if err != nil || string(got) != "archive bytes" {
			t.Fatalf("Get = %q, %v", got, err)
		}
	}
	if f.calls != 1 {
		t.Errorf("an immutable cached document was fetched %d times, want once", f.calls)
	}
	// A cached body Valid rejects is fetched again, never used.
	f.body = "other bytes"
	other := func(b []byte) bool { return string(b) == "other bytes" }
	if got, err := c.Get(t.Context(), url, Policy{Immutable: true, Valid: other}); err != nil || string(got) != "other bytes" || f.calls != 2 {
		t.Errorf("rejected cached copy: got %q, err %v, calls %d; want a second fetch", got, err, f.calls)
	}
}

func TestCacheRevalidatesAndFallsBack(t *testing.T) {
	const url = "https://reg.example/v1/packs/x/index.json"
	f := &countingFetcher{body: "v1"}
	c := &Cache{Dir: t.TempDir(), Fetch: f}
	if _, err := c.Get(t.Context(), url, Policy{}); err != nil {
		t.Fatal(err)
	}
	f.body = "v2"
	if got, err := c.Get(t.Context(), url, Policy{}); err != nil || string(got) != "v2" {
		t.Fatalf("FreshFor 0 must ask again: got %q, %v", got, err)
	}
	f.down = true
	got, err := c.Get(t.Context(), url, Policy{})
	if err != nil || string(got) != "v2" || len(c.Warnings) != 1 {
		t.Fatalf("unreachable registry: got %q, %v, warnings %q; want the cached copy with a warning", got, err, c.Warnings)
	}
	if _, err := (&Cache{Dir: t.TempDir(), Offline: true, Fetch: f}).Get(t.Context(), url, Policy{}); !errors.Is(err, ErrNotCached) {
		t.Errorf("offline, empty cache: err = %v, want ErrNotCached", err)
	}
}
