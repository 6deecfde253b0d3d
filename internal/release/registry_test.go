package release

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/registry"
)

func TestPickVersion(t *testing.T) {
	vs := []registry.PublishedVersion{
		{Version: "1.0.0"}, {Version: "1.4.0", Yanked: true}, {Version: "1.3.0"},
		{Version: "1.5.0-rc.1"}, {Version: "2.0.0"}, {Version: "not-semver"},
	}
	tests := []struct{ want, got string }{
		{"<2.0.0", "1.3.0"}, // 1.4.0 yanked, 1.5.0-rc.1 a prerelease
		{"<1.3.0", "1.0.0"},
		{"<3.0.0", "2.0.0"},
		{"1.4.0", "1.4.0"}, // named exactly: even a yanked one
		{"<1.0.0", ""},
		{"9.9.9", ""},
	}
	for _, tt := range tests {
		pv, ok := pickVersion(vs, tt.want)
		if got := map[bool]string{true: pv.Version}[ok]; got != tt.got {
			t.Errorf("pickVersion(%q) = %q, want %q", tt.want, got, tt.got)
		}
	}
}

// served is a registry.Fetcher: the documents it holds, or (nil) a registry
// that cannot be reached.
type served map[string]string

func (s served) Get(_ context.Context, ref string, _ registry.GetOptions) (*registry.Response, error) {
	if s == nil {
		return nil, errors.New("dial tcp: connection refused")
	}
	body, ok := s[ref]
	if !ok {
		return nil, registry.ErrNotFound
	}
	return &registry.Response{URL: ref, StatusCode: 200, Body: []byte(body)}, nil
}

func TestOfflineRerunUsesCache(t *testing.T) {
	client, err := registry.New(registry.Options{Registry: "https://reg.example"})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	offline := &registry.Cache{Dir: dir, Fetch: served(nil)}
	if _, _, err := publishedVersions(t.Context(), offline, client, "acme.x"); err == nil {
		t.Fatal("no cache and no network: want an error")
	}
	online := &registry.Cache{Dir: dir, Fetch: served{
		"https://reg.example" + registry.DiscoveryPath:   `{}`,
		"https://reg.example/v1/packs/acme.x/index.json": `{"versions": [{"version": "1.0.0", "integrity": "sha256-x"}]}`,
	}}
	if _, vs, err := publishedVersions(t.Context(), online, client, "acme.x"); err != nil || len(vs) != 1 {
		t.Fatalf("online = %v, %v", vs, err)
	}
	_, vs, err := publishedVersions(t.Context(), offline, client, "acme.x")
	if err != nil || len(vs) != 1 || vs[0].Version != "1.0.0" {
		t.Fatalf("offline with a cache = %v, %v", vs, err)
	}
	if _, vs, err := publishedVersions(t.Context(), online, client, "acme.never"); err != nil || len(vs) != 0 {
		t.Fatalf("a pack never published = %v, %v; want no versions and no error", vs, err)
	}
}

// A malformed metadata document is named in JSON terms, not Go types.
func TestPackMetadataErrorNamesNoGoType(t *testing.T) {
	_, err := registry.ParsePackMetadata([]byte(`{"versions": "1.0.0"}`))
	if err == nil || strings.Contains(err.Error(), "Go ") || !strings.Contains(err.Error(), `"versions" is a string, want an array`) {
		t.Fatalf("err = %v", err)
	}
}
