package hosts

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/wop-cli/wop/internal/catalog"
)

// TestKnown: every shipped profile parses and is named for its file, so a
// message's "wop's hosts/<file>" is where a reader finds it.
func TestKnown(t *testing.T) {
	known, err := Known()
	if err != nil {
		t.Fatal(err)
	}
	if len(known) == 0 {
		t.Fatal("no shipped host profile")
	}
	for _, h := range known {
		if want := filepath.ToSlash(filepath.Join("hosts", h.Name+".json")); h.Path != want {
			t.Errorf("profile %q: Path %q, want %q", h.Name, h.Path, want)
		}
		if _, err := os.Stat(filepath.Base(h.Path)); err != nil {
			t.Errorf("profile %q: %v", h.Name, err)
		}
	}
}

func TestProviders(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "community.acme.tools"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "community.acme.tools", "pack.json"),
		[]byte(`{"name": "community.acme.tools", "version": "1.0.0", "nodes": [{"typeId": "community.acme.tools.fetch"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	registry, err := catalog.Open(t.Context(), dir, catalog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	other, err := catalog.ParseHost([]byte(`{"host": "other", "nodeTypes": ["x.y"]}`))
	if err != nil {
		t.Fatal(err)
	}
	targeted := catalog.WithHosts(registry, other)
	for _, tc := range []struct {
		name   string
		c      *catalog.Catalog
		typeID string
		want   string // the host's name; "" for none
	}{
		{"a host's feature node", registry, "feature.notifications.nodes.notify", "openwop-app"},
		{"a node its backend registers", registry, "app-builder.mcp-node.catalog", "openwop-app"},
		{"its built-in agent runner, no catalog", nil, "local.openwop-app.agent-runner", "openwop-app"},
		{"a vendor pack it bundles", registry, "market-intel.shift-detect", "openwop-app"},
		{"a typo", registry, "feature.notifications.nodes.notfy", ""},
		{"a prefix is no id", registry, "feature.notifications.nodes", ""},
		{"a lint that targets another host", targeted, "feature.notifications.nodes.notify", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := ""
			if h := Providers(tc.c)(tc.typeID); h != nil {
				got = h.Name
			}
			if got != tc.want {
				t.Errorf("Providers(c)(%q) = %q, want %q", tc.typeID, got, tc.want)
			}
		})
	}
}

func TestNamed(t *testing.T) {
	for name, want := range map[string]bool{
		"openwop-app":      true,
		"":                 false,
		"openwop-app.json": false, // a file
		"./openwop-app":    false,
		`x\openwop-app`:    false,
		"other-app":        false,
	} {
		if got := Named(name) != nil; got != want {
			t.Errorf("Named(%q) found %v, want %v", name, got, want)
		}
	}
}
