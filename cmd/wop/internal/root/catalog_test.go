package root

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wop-cli/wop/cmd/wop/internal/cli"
)

// TestURLCatalog lints a chain against a loopback registry, then offline
// from the cache, and offline with no cache.
func TestURLCatalog(t *testing.T) {
	docs := map[string]string{
		"/.well-known/openwop-registry.json":           `{"name": "test", "endpoints": {"registryIndex": "/v1/index.json"}}`,
		"/v1/index.json":                               `{"packs": [{"name": "community.acme.tools", "latestVersion": "1.0.0"}]}`,
		"/v1/packs/community.acme.tools/-/1.0.0.json":  `{"name": "community.acme.tools", "version": "1.0.0", "nodes": [{"typeId": "community.acme.tools.send", "configSchemaRef": "schemas/send.config.json"}]}`,
		"/community.acme.tools/1.0.0/send.config.json": `{"type": "object", "required": ["channel"]}`,
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := docs[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		_, _ = w.Write([]byte(body))
	}))
	defer srv.Close()
	dir := t.TempDir()
	chain := `{"name": "community.acme.flows", "version": "1.0.0", "kind": "workflow-chain", "engines": {"openwop": ">=1.0.0 <2.0.0"},
	  "chains": [{"chainId": "acme.flow", "version": "1.0.0", "label": "F", "description": "F.", "parameters": {"type": "object"},
	    "dag": {"nodes": [{"id": "a", "typeId": "community.acme.tools.send", "config": {}}, {"id": "b", "typeId": "community.acme.tools.gone"}],
	            "edges": [{"from": "a", "to": "b"}]}}]}`
	if err := os.MkdirAll(filepath.Join(dir, "flows"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "flows", "pack.json"), []byte(chain), 0o644); err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	lint := func(cacheDir string, args ...string) (int, string, string) {
		var out, errOut bytes.Buffer
		env := &cli.Env{In: strings.NewReader(""), Out: &out, ErrOut: &errOut, Getenv: func(string) string { return "" },
			WorkDir: dir, Version: "test", CacheDir: cacheDir, HTTPClient: srv.Client}
		code := Main(context.Background(), append([]string{"pack", "lint", "--catalog", srv.URL}, args...), env)
		return code, out.String(), errOut.String()
	}
	code, out, _ := lint(cache, "flows")
	if code != 1 || !strings.Contains(out, `error chain-typeid-unresolved: node "b"`) || !strings.Contains(out, `error chain-config-invalid: node "a"`) {
		t.Fatalf("online: exit %d\n%s", code, out)
	}
	srv.Close() // from here on the registry is gone
	code, out, errOut := lint(cache, "--offline", "flows")
	if code != 1 || !strings.Contains(out, `chain-config-invalid: node "a"`) {
		t.Errorf("offline from the cache: exit %d\n%s%s", code, out, errOut)
	}
	code, _, errOut = lint(t.TempDir(), "--offline", "flows")
	if code != 2 || !strings.Contains(errOut, "not in the catalog cache (run once without --offline to fill it)") {
		t.Errorf("offline without a cache: exit %d, %s", code, errOut)
	}
}
