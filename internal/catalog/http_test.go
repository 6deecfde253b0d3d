package catalog

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wop-cli/wop/internal/registry"
)

// testRegistry is a loopback registry serving fixed documents with ETags,
// answering If-None-Match with 304, and able to go down.
type testRegistry struct {
	*httptest.Server
	mu       sync.Mutex
	docs     map[string]string
	down     bool
	hits     map[string]int
	notMod   int
	requests int
}

func newTestRegistry(t *testing.T) *testRegistry {
	r := &testRegistry{docs: map[string]string{}, hits: map[string]int{}}
	r.Server = httptest.NewServer(http.HandlerFunc(r.serve))
	t.Cleanup(r.Close)
	r.docs["/.well-known/openwop-registry.json"] = `{"name": "test", "endpoints": {"registryIndex": "/v1/index.json", "versionManifest": "/v1/packs/{name}/-/{version}.json"}}`
	r.docs["/v1/index.json"] = `{"packs": [{"name": "community.acme.tools", "kind": "node", "latestVersion": "1.2.0", "typeIds": ["community.acme.tools.send"]}]}`
	r.docs["/v1/packs/community.acme.tools/-/1.2.0.json"] = toolsPack["community.acme.tools/pack.json"]
	for _, f := range []string{"send.config.json", "send.input.json", "channel.json"} {
		r.docs["/community.acme.tools/1.2.0/"+f] = toolsPack["community.acme.tools/schemas/"+f]
	}
	return r
}

func (r *testRegistry) serve(w http.ResponseWriter, req *http.Request) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.requests++
	if r.down {
		http.Error(w, "down for maintenance", http.StatusServiceUnavailable)
		return
	}
	body, ok := r.docs[req.URL.Path]
	if !ok {
		http.NotFound(w, req)
		return
	}
	r.hits[req.URL.Path]++
	sum := sha256.Sum256([]byte(body))
	etag := `"` + hex.EncodeToString(sum[:8]) + `"`
	w.Header().Set("ETag", etag)
	if req.Header.Get("If-None-Match") == etag {
		r.notMod++
		w.WriteHeader(http.StatusNotModified)
		return
	}
	_, _ = w.Write([]byte(body))
}

func (r *testRegistry) set(f func(r *testRegistry)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	f(r)
}

func (r *testRegistry) load(t *testing.T, cache string, offline bool) (*Catalog, error) {
	return r.loadAt(t, cache, offline, time.Now)
}

func (r *testRegistry) loadAt(t *testing.T, cache string, offline bool, now func() time.Time) (*Catalog, error) {
	client, err := registry.New(registry.Options{Registry: r.URL, Transport: r.Client().Transport})
	if err != nil {
		t.Fatal(err)
	}
	return Open(t.Context(), r.URL, Options{CacheDir: cache, Offline: offline, Fetch: client, Now: now})
}

func (r *testRegistry) count(t *testing.T, what string, wantRequests, wantNotModified int) {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.requests != wantRequests || r.notMod != wantNotModified {
		t.Errorf("%s: %d requests, %d answered 304; want %d and %d", what, r.requests, r.notMod, wantRequests, wantNotModified)
	}
	r.requests, r.notMod = 0, 0
}

func TestURLCatalog(t *testing.T) {
	reg := newTestRegistry(t)
	cache := t.TempDir()
	c, err := reg.load(t, cache, false)
	if err != nil {
		t.Fatal(err)
	}
	n, ok := c.NodeType("community.acme.tools.send")
	if !ok || n.PackVersion != "1.2.0" || n.Role != "side-effect" {
		t.Fatalf("node type from the version manifest = %+v, %v", n, ok)
	}
	url, ok := c.SchemaURL(n, n.ConfigSchema)
	if !ok {
		t.Fatal("config schema not fetched")
	}
	if ps, err := c.Validate(url, map[string]any{"channel": "fax"}); err != nil || len(ps) != 1 {
		t.Errorf("validate against the served schema ($ref to a sibling) = %+v, %v", ps, err)
	}

	reg.count(t, "first run", 5, 0) // discovery, index, manifest, the config schema and its $ref

	// A run soon after asks nothing: the index is fresh, the version's
	// manifest and schemas are immutable, and the snapshot holds the facts.
	c, err = reg.load(t, cache, false)
	if err != nil {
		t.Fatal(err)
	}
	n, _ = c.NodeType("community.acme.tools.send")
	c.SchemaURL(n, n.ConfigSchema)
	if n.Role != "side-effect" {
		t.Errorf("node type from the snapshot = %+v", n)
	}
	reg.count(t, "run within the freshness window", 0, 0)

	// An hour later discovery and index are revalidated: two 304s.
	later := func() time.Time { return time.Now().Add(time.Hour) }
	if _, err = reg.loadAt(t, cache, false, later); err != nil {
		t.Fatal(err)
	}
	reg.count(t, "run an hour later", 2, 2)

	// Outage with a cache: the cached copy serves, with a warning.
	reg.set(func(r *testRegistry) { r.down = true })
	evenLater := func() time.Time { return time.Now().Add(2 * time.Hour) }
	c, err = reg.loadAt(t, cache, false, evenLater)
	if err != nil {
		t.Fatalf("outage with a cache: %v", err)
	}
	if len(c.Warnings) == 0 || !strings.Contains(c.Warnings[0], "503") {
		t.Errorf("outage warnings = %q", c.Warnings)
	}
	if !c.HasType("community.acme.tools.send") {
		t.Error("cached catalog lost its node types")
	}

	// Outage without a cache: a clear error, never an empty catalog.
	if _, err := reg.load(t, t.TempDir(), false); err == nil || !strings.Contains(err.Error(), "503") {
		t.Errorf("outage without a cache: err = %v", err)
	}
}

// An index entry whose version manifest is gone (yanked, or a version the
// registry never served) keeps what the index says; one such entry used
// to make the whole URL catalog an error.
func TestURLCatalogEntryWithoutManifest(t *testing.T) {
	reg := newTestRegistry(t)
	reg.docs["/v1/index.json"] = `{"packs": [{"name": "community.acme.tools", "kind": "node", "latestVersion": "1.2.0", "typeIds": ["community.acme.tools.send"]},
		{"name": "community.acme.gone", "latestVersion": "not-semver", "typeIds": ["community.acme.gone.x"]}]}`
	c, err := reg.load(t, t.TempDir(), false)
	if err != nil {
		t.Fatal(err)
	}
	if !c.HasType("community.acme.tools.send") || !c.HasType("community.acme.gone.x") {
		t.Errorf("node types = %+v", c.Packs)
	}
	reg.set(func(r *testRegistry) { r.down = true })
	if _, err := reg.load(t, t.TempDir(), false); err == nil {
		t.Error("a registry that is down gave a catalog")
	}
}

func TestURLCatalogOffline(t *testing.T) {
	reg := newTestRegistry(t)
	cache := t.TempDir()
	if _, err := reg.load(t, cache, true); !errors.Is(err, registry.ErrNotCached) {
		t.Fatalf("offline with an empty cache: err = %v, want ErrNotCached", err)
	}
	if _, err := reg.load(t, cache, false); err != nil {
		t.Fatal(err)
	}
	reg.set(func(r *testRegistry) { r.requests = 0 })
	c, err := reg.load(t, cache, true)
	if err != nil || !c.HasType("community.acme.tools.send") {
		t.Fatalf("offline from the cache: %v", err)
	}
	reg.set(func(r *testRegistry) {
		if r.requests != 0 {
			t.Errorf("offline made %d requests", r.requests)
		}
	})
	later := func() time.Time { return time.Now().Add(30 * 24 * time.Hour) }
	c, err = Open(t.Context(), reg.URL, Options{CacheDir: cache, Offline: true, Now: later})
	if err != nil || len(c.Warnings) == 0 || !strings.Contains(c.Warnings[0], "refresh") {
		t.Errorf("a month-old offline catalog: warnings %q, err %v", c.Warnings, err)
	}
}

// hugeSchema is an object schema with n properties, optionally $ref'ing ref.
func hugeSchema(n int, ref string) string {
	var b strings.Builder
	b.WriteString(`{"type": "object", "properties": {`)
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"p%d": {"type": "string"}`, i)
	}
	b.WriteString("}")
	if ref != "" {
		fmt.Fprintf(&b, `, "$ref": %q`, ref)
	}
	b.WriteString("}")
	return b.String()
}

// TestHostileRegistrySchemaIsBounded: a registry serving a node type schema
// of 100k properties, directly or behind a $ref, cannot make lint compile
// for minutes: the schema is refused by the subschema budget, at once.
func TestHostileRegistrySchemaIsBounded(t *testing.T) {
	for name, docs := range map[string]map[string]string{
		"served":     {"/community.acme.tools/1.2.0/send.config.json": hugeSchema(100_000, "")},
		"behind ref": {"/community.acme.tools/1.2.0/channel.json": hugeSchema(100_000, "")},
	} {
		t.Run(name, func(t *testing.T) {
			reg := newTestRegistry(t)
			reg.set(func(r *testRegistry) { maps.Copy(r.docs, docs) })
			c, err := reg.load(t, t.TempDir(), false)
			if err != nil {
				t.Fatal(err)
			}
			n, _ := c.NodeType("community.acme.tools.send")
			start := time.Now()
			url, ok := c.SchemaURL(n, n.ConfigSchema)
			if !ok {
				t.Fatal("config schema not fetched")
			}
			_, err = c.Validate(url, map[string]any{"channel": "fax"})
			if took := time.Since(start); took > 10*time.Second {
				t.Errorf("took %v", took)
			}
			if err == nil || !strings.Contains(err.Error(), "too large to check") {
				t.Errorf("Validate against a 100k-property schema: %v, want a refusal", err)
			}
		})
	}
}

// TestUnreadableRegistryDiscovery: a registry's discovery document over the
// ceiling or not JSON says so, as unreadable input.
func TestUnreadableRegistryDiscovery(t *testing.T) {
	for body, want := range map[string]string{
		`{"name": "` + strings.Repeat("x", registry.MaxDiscovery) + `"}`: "discovery document over 4194304 bytes",
		`{"name": `: "unreadable input: the discovery document is not valid JSON",
	} {
		reg := newTestRegistry(t)
		reg.set(func(r *testRegistry) { r.docs["/.well-known/openwop-registry.json"] = body })
		_, err := reg.load(t, t.TempDir(), false)
		if !errors.Is(err, registry.ErrUnreadable) || !strings.Contains(err.Error(), want) {
			t.Errorf("%.20s...: %v, want %q", body, err, want)
		}
	}
}

// TestHostileManifestIdentity: a served version manifest whose name or
// version is not a pack name or SemVer would become path segments of the
// schema URLs fetched later; the catalog is refused, naming the manifest,
// and no request leaves the registry's pack paths.
func TestHostileManifestIdentity(t *testing.T) {
	for _, tc := range []struct{ name, version, want string }{
		{"../../admin", "1.2.0", `name "../../admin" is not a pack name`},
		{"community.acme.tools", "../../../secret?x=", `version "../../../secret?x=" is not a strict SemVer version`},
		{"community.acme.tools", "1.2.0/../..", `version "1.2.0/../.." is not a strict SemVer version`},
	} {
		t.Run(tc.name+"@"+tc.version, func(t *testing.T) {
			reg := newTestRegistry(t)
			manifest := strings.Replace(toolsPack["community.acme.tools/pack.json"], `"name": "community.acme.tools"`, fmt.Sprintf("%q: %q", "name", tc.name), 1)
			manifest = strings.Replace(manifest, `"version": "1.2.0"`, fmt.Sprintf("%q: %q", "version", tc.version), 1)
			reg.docs["/v1/packs/community.acme.tools/-/1.2.0.json"] = manifest
			_, err := reg.load(t, t.TempDir(), false)
			if err == nil || !strings.Contains(err.Error(), tc.want) ||
				!strings.Contains(err.Error(), "/v1/packs/community.acme.tools/-/1.2.0.json") {
				t.Fatalf("err = %v, want %q naming the manifest", err, tc.want)
			}
			for p := range reg.hits {
				if p != "/.well-known/openwop-registry.json" && p != "/v1/index.json" && p != "/v1/packs/community.acme.tools/-/1.2.0.json" {
					t.Errorf("request steered to %s", p)
				}
			}
		})
	}
}

// TestSchemaFetchChecksIdentity: a pack the index alone names (its version
// manifest is gone) never passed addServed's check; fetching its schemas
// checks its name and version and refuses a file of "..", asking nothing.
func TestSchemaFetchChecksIdentity(t *testing.T) {
	reg := newTestRegistry(t)
	c, err := reg.load(t, t.TempDir(), false)
	if err != nil {
		t.Fatal(err)
	}
	reg.count(t, "load", 3, 0)
	for _, tc := range []struct {
		p    Pack
		ref  string
		want string
	}{
		{Pack{Name: "..", Version: "1.0.0"}, "x.json", `name ".." is not a pack name`},
		{Pack{Name: "community.acme.tools", Version: ".."}, "x.json", `version ".." is not a strict SemVer version`},
		{Pack{Name: "community.acme.tools", Version: "1.2.0"}, "schemas/..", `schema ref "schemas/.." names no file`},
	} {
		if _, err := c.fetchDoc(&tc.p, tc.ref); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("fetch %+v %s: err %v, want %q", tc.p, tc.ref, err, tc.want)
		}
	}
	reg.count(t, "refused fetches", 0, 0)
}
