package catalog

import (
	"encoding/json"
	"regexp"
	"testing"
)

// FuzzParseIndex: registry index documents are untrusted. Whatever parses
// must name its packs, and adding them to a catalog must not panic.
func FuzzParseIndex(f *testing.F) {
	f.Add([]byte(`{"packs": [{"name": "a.b.c", "latestVersion": "1.0.0", "typeIds": ["a.b.c.x"]}]}`))
	f.Add([]byte(`[{"name": "a", "typeIds": ["x"], "agentIds": ["y"]}]`))
	f.Add([]byte(`{"name": "one", "kind": "workflow-chain", "typeIds": ["c"]}`))
	f.Add([]byte(`{"packs": null}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		entries, err := parseIndex(raw)
		if err != nil {
			return
		}
		if !json.Valid(raw) {
			t.Fatalf("accepted invalid JSON %q", raw)
		}
		c := newCatalog("fuzz")
		c.addIndex(entries)
		for _, p := range c.Packs {
			if p.Name == "" {
				t.Fatalf("a pack without a name from %q", raw)
			}
		}
	})
}

// FuzzParseManifest: version manifests are untrusted. A parsed manifest has
// a name, and every node type it yields has a typeId; one that fails gets
// a position.
func FuzzParseManifest(f *testing.F) {
	f.Add([]byte(toolsPack["community.acme.tools/pack.json"]))
	f.Add([]byte(toolsPack["community.acme.flows/pack.json"]))
	f.Add([]byte(`{"name": "x", "nodes": [{"typeId": ""}, {}], "agents": [{}]}`))
	f.Add([]byte("{\n  \"name\": garbage\n}"))
	f.Add([]byte(`{"name": "x", "nodes": {"typeId": 5}}`))
	positioned := regexp.MustCompile(`^(\d+:\d+: | )`) // atPosition's "line:col: msg" or " msg"
	f.Fuzz(func(t *testing.T, raw []byte) {
		p, nodes, err := parseManifest(raw, "")
		if err != nil {
			// A broken folder pack is reported at a line and column (or
			// without one), never with a panic.
			if msg := atPosition(raw, err).Error(); !positioned.MatchString(msg) {
				t.Fatalf("warning %q for %q has no position or leading space", msg, raw)
			}
			return
		}
		if p.Name == "" {
			t.Fatalf("manifest without a name accepted: %q", raw)
		}
		for _, n := range nodes {
			if n.TypeID == "" {
				t.Fatalf("node type without a typeId from %q", raw)
			}
		}
		c := newCatalog("fuzz")
		c.add(p, nodes)
	})
}

// FuzzParseHost: a host profile is a file someone else may have written.
// Whatever parses has a valid name and no empty or repeated id, and merging
// it into a catalog must not panic.
func FuzzParseHost(f *testing.F) {
	f.Add([]byte(refHost))
	f.Add([]byte(`{"host": "x", "nodeTypes": ["a", "b"], "agentIds": ["c"]}`))
	f.Add([]byte(`{"host": "x", "nodeTypes": null}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		h, err := ParseHost(raw)
		if err != nil {
			return
		}
		if !hostNameRE.MatchString(h.Name) {
			t.Fatalf("accepted host name %q", h.Name)
		}
		c := WithHosts(newCatalog("fuzz"), h)
		for _, id := range h.NodeTypes {
			if id == "" || !c.HasType(id) {
				t.Fatalf("node type %q not resolved", id)
			}
		}
	})
}
