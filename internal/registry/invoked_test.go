package registry

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/invocation"
)

// TestHintsNameInvoked: every hint of a registry's answer that names a wop
// command names the one that started wop (Options.Invoked), and plain wop
// without it.
func TestHintsNameInvoked(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/401":
			w.WriteHeader(http.StatusUnauthorized)
		default:
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			w.Write([]byte(`{"error":"tarball_gunzip_failed","message":"bad gzip"}`))
		}
	}))
	defer srv.Close()
	for _, invoked := range []invocation.Name{"", "npx wop"} {
		c, err := New(Options{Registry: srv.URL, Invoked: invoked})
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]string{
			"/401": "run '" + invoked.String() + " login --registry URL'",
			"/bad": "rebuild it with " + invoked.String() + " pack build",
		}
		for path, w := range want {
			_, err := c.Get(t.Context(), path, GetOptions{})
			var hinted interface{ Hint() string }
			if !errors.As(err, &hinted) {
				t.Fatalf("%s: %v", path, err)
			}
			if h := hinted.Hint(); !strings.Contains(h, w) {
				t.Errorf("%q %s: hint %q, want %q in it", invoked, path, h, w)
			}
		}
		if h := HintsIn("FAIL invalid_manifest", invoked); h != "invalid_manifest: pack.json does not validate; run "+invoked.String()+" pack lint and fix the errors" {
			t.Errorf("%q: HintsIn = %q", invoked, h)
		}
		if h := (&StatusError{StatusCode: http.StatusAccepted, Invoked: invoked}).Hint(); !strings.Contains(h, "'"+invoked.String()+" pack verify NAME@VERSION --registry URL'") {
			t.Errorf("%q: the hint of an upload answered 202 = %q", invoked, h)
		}
		if h := TokenHint(invoked); !strings.HasSuffix(h, "'"+invoked.String()+" login --registry URL'") {
			t.Errorf("%q: TokenHint = %q", invoked, h)
		}
	}
}
