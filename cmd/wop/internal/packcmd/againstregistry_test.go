package packcmd

import (
	"context"
	"errors"
	"os"
	"path/filepath"
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

// offline is a registry that cannot be reached.
type offline struct{}

func (offline) Discover(context.Context) (*registry.Discovery, error) {
	return nil, errors.New("dial tcp: connection refused")
}
func (offline) PackMetadata(context.Context, registry.Endpoints, string) ([]byte, []registry.PublishedVersion, bool, error) {
	panic("not reached")
}
func (offline) Download(context.Context, string) ([]byte, error) { panic("not reached") }

func TestOfflineRerunUsesCache(t *testing.T) {
	cache := registryCache{dir: t.TempDir()}
	if _, _, err := publishedVersions(t.Context(), offline{}, cache, "acme.x"); err == nil {
		t.Fatal("no cache and no network: want an error")
	}
	p := cache.metadataPath("acme.x")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(`{"versions": [{"version": "1.0.0", "integrity": "sha256-x"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	vs, _, err := publishedVersions(t.Context(), offline{}, cache, "acme.x")
	if err != nil || len(vs) != 1 || vs[0].Version != "1.0.0" {
		t.Fatalf("offline with a cache = %v, %v", vs, err)
	}
	data := []byte("archive bytes")
	path, err := cache.blob(sri(data), func() ([]byte, error) { return data, nil })
	if err != nil {
		t.Fatal(err)
	}
	again, err := cache.blob(sri(data), func() ([]byte, error) { return nil, errors.New("network used on a cache hit") })
	if err != nil || again != path {
		t.Fatalf("cache hit = %q, %v", again, err)
	}
}
