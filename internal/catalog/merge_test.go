package catalog

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wop-cli/wop/internal/testutil/filetree"
)

// otherPack is a second source's pack: it defines a node type the tools
// folder does not, and a newer version of a pack the first source holds.
var otherPacks = map[string]string{
	"community.acme.notify/pack.json": `{"name": "community.acme.notify", "version": "1.0.0",
	  "nodes": [{"typeId": "community.acme.notify.push", "inputSchemaRef": "schemas/push.input.json"}]}`,
	"community.acme.notify/schemas/push.input.json": `{"type": "object", "required": ["token"], "properties": {"token": {"type": "string"}}}`,
	"community.acme.tools/pack.json":                `{"name": "community.acme.tools", "version": "1.1.0", "nodes": [{"typeId": "community.acme.tools.old"}]}`,
}

func TestMergeResolvesFromEverySource(t *testing.T) {
	root := t.TempDir()
	filetree.Write(t, filepath.Join(root, "a"), toolsPack)
	filetree.Write(t, filepath.Join(root, "b"), otherPacks)
	a, err := loadFolder(filepath.Join(root, "a"), "")
	if err != nil {
		t.Fatal(err)
	}
	b, err := loadFolder(filepath.Join(root, "b"), "")
	if err != nil {
		t.Fatal(err)
	}
	m := Merge(a, b)
	for _, id := range []string{"community.acme.tools.send", "community.acme.notify.push"} {
		if !m.HasType(id) {
			t.Errorf("merged catalog lacks %s", id)
		}
	}
	if m.HasType("community.acme.tools.old") {
		t.Error("the older community.acme.tools (1.1.0, second source) must not add its node types next to 1.2.0's")
	}
	if len(m.Packs) != 3 || m.Source != a.Source+", "+b.Source {
		t.Errorf("packs %d, source %q", len(m.Packs), m.Source)
	}
	// Schemas are read from the source that holds the pack.
	n, _ := m.NodeType("community.acme.notify.push")
	url, ok := m.SchemaURL(n, n.InputSchema)
	if !ok {
		t.Fatal("the second source's schema is not readable through the merge")
	}
	if _, required, _, _ := m.Properties(url); strings.Join(required, ",") != "token" {
		t.Errorf("required = %v", required)
	}
	send, _ := m.NodeType("community.acme.tools.send")
	cfg, ok := m.SchemaURL(send, send.ConfigSchema)
	if !ok {
		t.Fatal("the first source's schema is not readable through the merge")
	}
	if problems, err := m.Validate(cfg, map[string]any{"channel": "fax"}); err != nil || len(problems) == 0 {
		t.Errorf("a $ref across the first source's files must still resolve and judge: %v, %v", problems, err)
	}
}

func TestMergeKeyNamesEverySource(t *testing.T) {
	root := t.TempDir()
	filetree.Write(t, filepath.Join(root, "a"), toolsPack)
	filetree.Write(t, filepath.Join(root, "b"), otherPacks)
	key := func() string {
		a, err := loadFolder(filepath.Join(root, "a"), "")
		if err != nil {
			t.Fatal(err)
		}
		b, err := loadFolder(filepath.Join(root, "b"), "")
		if err != nil {
			t.Fatal(err)
		}
		return Merge(a, b).Key()
	}
	before := key()
	if before == "" {
		t.Fatal("two known states must give a known key")
	}
	schema := filepath.Join(root, "b", "community.acme.notify", "schemas", "push.input.json")
	if err := os.WriteFile(schema, []byte(`{"type": "object"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(schema, later, later); err != nil {
		t.Fatal(err)
	}
	if after := key(); after == before {
		t.Error("editing the second source's schema left the merged key unchanged")
	}
}

const refHost = `{
  "host": "example-host",
  "title": "Example host",
  "nodeTypes": ["feature.notify.nodes.notify", "community.acme.tools.send"],
  "agentIds": ["host.helper"],
  "hostSurfaces": ["host.fs"],
  "runtimeCapabilities": ["secrets"]
}`

func TestWithHosts(t *testing.T) {
	dir := t.TempDir()
	filetree.Write(t, dir, toolsPack)
	c, err := loadFolder(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	h, err := ParseHost([]byte(refHost))
	if err != nil {
		t.Fatal(err)
	}
	if WithHosts(nil, h) != nil {
		t.Error("a host without a catalog must leave the catalog rules silent (nil catalog)")
	}
	m := WithHosts(c, h)
	n, ok := m.NodeType("feature.notify.nodes.notify")
	if !ok || n.Pack != "host:example-host" {
		t.Errorf("host node type = %+v, %v", n, ok)
	}
	if n, _ := m.NodeType("community.acme.tools.send"); n.Pack != "community.acme.tools" || n.InputSchema == "" {
		t.Errorf("a host listing a pack's typeId hid the pack's facts: %+v", n)
	}
	if p, ok := m.AgentPack("host.helper"); !ok || p != "host:example-host" {
		t.Errorf("host agent = %q, %v", p, ok)
	}
	if m.HasType("feature.notify.nodes.notfy") {
		t.Error("a typo of a host's typeId resolved")
	}
	if hs := m.Hosts(); len(hs) != 1 || !slices.Contains(hs[0].HostSurfaces, "host.fs") || !slices.Contains(hs[0].RuntimeCapabilities, "secrets") || slices.Contains(hs[0].HostSurfaces, "host.kanban") {
		t.Errorf("hosts = %+v", hs)
	}
	if m.Key() == c.Key() || m.Key() == "" {
		t.Error("the host profile is not part of the catalog's key")
	}
}

func TestParseHostErrors(t *testing.T) {
	for _, tc := range []struct{ doc, want string }{
		{`{"host": "x", "nodeType": []}`, `1:15: unknown member "nodeType"`},
		{`{"host": "x", "nodetypes": []}`, `1:15: unknown member "nodetypes"`},
		{`{"host": "x", "host": "y"}`, `1:15: member "host" appears twice`},
		{`["x"]`, `want an object`},
		{`{"host": "X Y"}`, `host "X Y": want a name`},
		{`{"host": "x", "nodeTypes": ["a", "a"]}`, `nodeTypes[1] "a" appears twice`},
		{`{"host": "x", "nodeTypes": [""]}`, `nodeTypes[0] "": want an id without spaces`},
		{`{"host": "x", "nodeTypes": "a"}`, `1:30: member "nodeTypes": want an array`},
		{"{\"host\": \"x\",\n  \"agentIds\": [1}", "2:17:"},
		{`{"host": "x"} {}`, "1:15: unexpected data after the top-level value"},
	} {
		_, err := ParseHost([]byte(tc.doc))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseHost(%s) = %v, want %q", tc.doc, err, tc.want)
		}
	}
}

func TestLoadHostNamesTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "host.json")
	if err := os.WriteFile(path, []byte(`{"host": "x", "extra": 1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := LoadHost(path)
	if err == nil || !strings.HasPrefix(err.Error(), path+":1:") {
		t.Errorf("err = %v", err)
	}
}
