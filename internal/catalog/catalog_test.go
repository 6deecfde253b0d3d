package catalog

import (
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/testutil/filetree"
)

var toolsPack = map[string]string{
	"community.acme.tools/pack.json": `{"name": "community.acme.tools", "version": "1.2.0",
	  "nodes": [{"typeId": "community.acme.tools.send", "version": "1.0.0", "role": "side-effect", "capabilities": ["side-effectful"],
	    "configSchemaRef": "schemas/send.config.json", "inputSchemaRef": "schemas/send.input.json"}],
	  "agents": [{"agentId": "community.acme.tools.helper"}]}`,
	"community.acme.tools/schemas/send.config.json": `{"$id": "https://packs.example/community.acme.tools/1.2.0/send.config.json",
	  "type": "object", "required": ["channel"], "additionalProperties": false,
	  "properties": {"channel": {"$ref": "channel.json"}, "retries": {"type": "integer"}}}`,
	"community.acme.tools/schemas/send.input.json": `{"type": "object", "required": ["text"], "properties": {"text": {"type": "string"}}}`,
	"community.acme.tools/schemas/channel.json":    `{"$id": "https://packs.example/community.acme.tools/1.2.0/channel.json", "type": "string", "enum": ["email", "sms"]}`,
	"community.acme.flows/pack.json":               `{"name": "community.acme.flows", "version": "1.0.0", "kind": "workflow-chain", "chains": [{"chainId": "acme.flow"}]}`,
}

func TestOpenKinds(t *testing.T) {
	root := t.TempDir()
	filetree.Write(t, filepath.Join(root, "folder"), toolsPack)
	checkout := map[string]string{DiscoveryPath: `{"name": "test registry"}`}
	for k, v := range toolsPack {
		checkout["packs/"+k] = v
	}
	filetree.Write(t, filepath.Join(root, "checkout"), checkout)
	filetree.Write(t, root, map[string]string{"index.json": `{"packs": [{"name": "community.acme.tools", "latest": "1.2.0", "typeIds": ["community.acme.tools.send"], "agentIds": ["community.acme.tools.helper"]}]}`})
	for _, path := range []string{"folder", "checkout", "index.json"} {
		t.Run(path, func(t *testing.T) {
			c, err := Open(t.Context(), filepath.Join(root, path), Options{})
			if err != nil {
				t.Fatal(err)
			}
			n, ok := c.NodeType("community.acme.tools.send")
			if !ok || n.Pack != "community.acme.tools" || n.PackVersion != "1.2.0" {
				t.Fatalf("node type = %+v, %v", n, ok)
			}
			if p, ok := c.AgentPack("community.acme.tools.helper"); !ok || p != "community.acme.tools" {
				t.Errorf("agent pack = %q, %v", p, ok)
			}
			if c.HasType("acme.flow") {
				t.Error("a chainId is not a node type")
			}
		})
	}
}

func TestNodeTypeFacts(t *testing.T) {
	dir := t.TempDir()
	filetree.Write(t, dir, toolsPack)
	c, err := loadFolder(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	n, _ := c.NodeType("community.acme.tools.send")
	if n.Role != "side-effect" || len(n.Capabilities) != 1 || n.Version != "1.0.0" {
		t.Errorf("facts = %+v", n)
	}
	url, ok := c.SchemaURL(n, n.ConfigSchema)
	if !ok || url != "https://packs.example/community.acme.tools/1.2.0/send.config.json" {
		t.Fatalf("config schema url = %q, %v", url, ok)
	}
	props, req, closed, ok := c.Properties(url)
	if !ok || !closed || len(props) != 2 || len(req) != 1 {
		t.Errorf("properties = %v %v %v %v", props, req, closed, ok)
	}
	tests := []struct {
		name     string
		instance any
		problems int
	}{
		{"valid", map[string]any{"channel": "sms"}, 0},
		{"missing required", map[string]any{}, 1},
		{"ref resolved", map[string]any{"channel": "fax"}, 1},
		{"closed", map[string]any{"channel": "sms", "extra": true}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ps, err := c.Validate(url, tt.instance)
			if err != nil || len(ps) != tt.problems {
				t.Errorf("Validate = %+v, %v; want %d problems", ps, err, tt.problems)
			}
		})
	}
	in, ok := c.SchemaURL(n, n.InputSchema)
	if !ok || in == "" {
		t.Errorf("input schema without $id gets a catalog URL, got %q", in)
	}
}

func TestFindCheckout(t *testing.T) {
	root := t.TempDir()
	filetree.Write(t, root, map[string]string{DiscoveryPath: `{}`, "packs/a/pack.json": `{"name": "a"}`})
	if got := FindCheckout(filepath.Join(root, "packs", "a")); got != root {
		t.Errorf("FindCheckout = %q, want %q", got, root)
	}
	if got := FindCheckout(t.TempDir()); got != "" {
		t.Errorf("FindCheckout outside a checkout = %q", got)
	}
}

// TestCheckoutFinderAnswersAsTheDisk: a CheckoutFinder shared by many
// lookups gives each path FindCheckout's answer, in any order (packs in a
// checkout, outside one, a checkout nested in another's packs/, a file),
// and answers a directory it has passed from its memo.
func TestCheckoutFinderAnswersAsTheDisk(t *testing.T) {
	root := t.TempDir()
	filetree.Write(t, root, map[string]string{
		"reg/" + DiscoveryPath: `{}`, "reg/packs/a/pack.json": `{}`, "reg/packs/b/pack.json": `{}`,
		"reg/packs/inner/" + DiscoveryPath: `{}`, "reg/packs/inner/packs/c/pack.json": `{}`,
		"loose/d/pack.json": `{}`, "half/packs/e/pack.json": `{}`,
	})
	paths := []string{"reg/packs/a", "reg/packs/b", "reg/packs/a/pack.json", "reg/packs/inner/packs/c",
		"reg/packs/inner", "reg", "loose/d", "loose/d/pack.json", "half/packs/e", "missing/x", "."}
	for _, order := range [][]int{{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, {10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0}, {4, 3, 6, 0, 9, 2, 5, 8, 1, 10, 7}} {
		f := NewCheckoutFinder()
		for _, i := range append(order, order...) {
			p := filepath.Join(root, paths[i])
			if got, want := f.Find(p), FindCheckout(p); got != want {
				t.Errorf("order %v: Find(%s) = %q, FindCheckout says %q", order, paths[i], got, want)
			}
		}
	}
	f := NewCheckoutFinder()
	f.Find(filepath.Join(root, "reg/packs/a"))
	if err := os.Remove(filepath.Join(root, "reg", DiscoveryPath)); err != nil {
		t.Fatal(err)
	}
	if got := f.Find(filepath.Join(root, "reg/packs/b")); got != filepath.Join(root, "reg") {
		t.Errorf("after the memo saw reg/packs: Find(reg/packs/b) = %q, want the memo's answer", got)
	}
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	filetree.Write(t, dir, map[string]string{"bad.json": `{"x": 1}`, "broken/p/pack.json": `{`, "empty/readme": ``})
	for _, path := range []string{"bad.json", "broken", "empty", "missing"} {
		if _, err := Open(t.Context(), filepath.Join(dir, path), Options{}); err == nil {
			t.Errorf("Open(%s) succeeded", path)
		}
	}
}

// TestFolderSnapshot: a cached folder loads the same facts, and a changed
// manifest is read again.
func TestFolderSnapshot(t *testing.T) {
	dir, cache := t.TempDir(), t.TempDir()
	filetree.Write(t, dir, toolsPack)
	for range 2 {
		c, err := Open(t.Context(), dir, Options{CacheDir: cache})
		if err != nil {
			t.Fatal(err)
		}
		n, ok := c.NodeType("community.acme.tools.send")
		if !ok || n.Role != "side-effect" || n.ConfigSchema != "schemas/send.config.json" {
			t.Fatalf("node type = %+v", n)
		}
		if url, ok := c.SchemaURL(n, n.ConfigSchema); !ok || url == "" {
			t.Fatal("schema not readable from a snapshot-loaded pack")
		}
	}
	snaps, _ := filepath.Glob(filepath.Join(cache, "catalog", "folder-*.gob"))
	if len(snaps) != 1 {
		t.Fatalf("snapshots = %v", snaps)
	}
	filetree.Write(t, dir, map[string]string{"community.acme.tools/pack.json": `{"name": "community.acme.tools", "version": "1.3.0", "nodes": [{"typeId": "community.acme.tools.fax", "role": "side-effect"}]}`})
	c, err := Open(t.Context(), dir, Options{CacheDir: cache})
	if err != nil {
		t.Fatal(err)
	}
	if !c.HasType("community.acme.tools.fax") || c.HasType("community.acme.tools.send") {
		t.Error("a changed manifest was not read again")
	}
}

// TestFolderSkipsBrokenPack: a sibling pack.json that is not JSON, or has
// a member of the wrong type, is skipped with a warning at its file, line
// and column; the rest of the folder is the catalog, counted incomplete,
// and no snapshot hides the warning next time. A folder of nothing but
// broken packs is an error.
func TestFolderSkipsBrokenPack(t *testing.T) {
	dir, cache := t.TempDir(), t.TempDir()
	tree := maps.Clone(toolsPack)
	tree["p3/pack.json"] = "{\n  \"name\": garbage\n}\n"
	tree["p4/pack.json"] = "{\"name\": \"community.acme.four\",\n \"nodes\": {}}"
	filetree.Write(t, dir, tree)
	for run := range 2 {
		c, err := loadFolder(dir, cache)
		if err != nil {
			t.Fatalf("run %d: %v", run, err)
		}
		want := []string{
			filepath.Join(dir, "p3", "pack.json") + ":2:11: unexpected 'g' where a value belongs; a string needs double quotes; skipped",
			filepath.Join(dir, "p4", "pack.json") + ":2:11: member \"nodes\": want an array, found object; skipped",
		}
		if c.Skipped != 2 || len(c.Warnings) != 2 || !strings.HasPrefix(c.Warnings[0], want[0]) || !strings.HasPrefix(c.Warnings[1], want[1]) {
			t.Errorf("run %d: skipped %d, warnings %q", run, c.Skipped, c.Warnings)
		}
		if !c.HasType("community.acme.tools.send") {
			t.Errorf("run %d: the good packs are missing", run)
		}
	}

	only := t.TempDir()
	filetree.Write(t, only, map[string]string{"p3/pack.json": "{\n  \"name\": garbage\n}\n"})
	if _, err := loadFolder(only, ""); err == nil || !strings.Contains(err.Error(), "pack.json:2:11: unexpected 'g'") {
		t.Errorf("a folder of broken packs: err %v", err)
	}
}
