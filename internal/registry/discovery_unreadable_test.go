package registry

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestDiscoveryUnreadable: a discovery document over the ceiling says so,
// and one that is not JSON is unreadable input, never a bare JSON error.
func TestDiscoveryUnreadable(t *testing.T) {
	for body, want := range map[string]string{
		`{"name": "x", "pad": "` + strings.Repeat("x", MaxDiscovery) + `"}`: "discovery document over 4194304 bytes",
		`{"name": `: "the discovery document is not valid JSON: unexpected end of JSON input",
		`[1, 2]`:    "the discovery document is not valid JSON",
	} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(body)) }))
		c, err := New(Options{Registry: srv.URL})
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.Discover(context.Background())
		srv.Close()
		if !errors.Is(err, ErrUnreadable) || !strings.Contains(err.Error(), want) {
			t.Errorf("%.20s...: %v, want unreadable input saying %q", body, err, want)
		}
	}
}
