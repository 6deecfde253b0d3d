package migrate

import (
	"errors"
	"strings"
	"testing"
)

func TestToV2(t *testing.T) {
	tests := []struct {
		name, src, want string
		notes           []string // substrings, one per note
	}{
		{"kind, ceiling, signing",
			"{\n  \"name\": \"a.b.c\",\n  \"engines\": {\"openwop\": \">=1.1.0 <2.0.0\"},\n  \"signing\": {\"method\": \"manual\"},\n  \"agents\": []\n}\n",
			"{\n  \"name\": \"a.b.c\",\n  \"engines\": {\"openwop\": \">=1.1.0 <3.0.0\"},\n  \"agents\": [],\n  \"kind\": \"node\"\n}\n", nil},
		{"a pack with agents gets the 1.1.0 floor agents need",
			`{"kind": "node", "engines": {"openwop": ">=1.0.0"}, "agents": [{"agentId": "a"}]}`,
			`{"kind": "node", "engines": {"openwop": ">=1.1.0 <3.0.0"}, "agents": [{"agentId": "a"}]}`, nil},
		{"a higher floor with agents is kept",
			`{"kind": "node", "engines": {"openwop": ">=1.2 <2.0.0"}, "agents": []}`,
			`{"kind": "node", "engines": {"openwop": ">=1.2 <3.0.0"}, "agents": []}`, nil},
		{"unbounded floor, chain kind",
			`{"chains": [], "engines": {"openwop": ">=1.0.0"}}`,
			`{"chains": [], "engines": {"openwop": ">=1.0.0 <3.0.0"}, "kind": "workflow-chain"}`, nil},
		{"frontend plugin kind",
			`{"uiPlugins": [], "engines": {"openwop": ">=1.0.0 <2.0.0"}}`,
			`{"uiPlugins": [], "engines": {"openwop": ">=1.0.0 <3.0.0"}, "kind": "frontend-plugin"}`, nil},
		{"already v2 is unchanged",
			`{"kind": "node", "engines": {"openwop": ">=1 <3.0.0"}, "peerDependencies": {"agents": "^1"}}`,
			`{"kind": "node", "engines": {"openwop": ">=1 <3.0.0"}, "peerDependencies": {"agents": "^1"}}`, nil},
		{"alias to family with facets",
			`{"kind": "node", "engines": {"openwop": ">=1.1.0 <3.0.0"}, "peerDependencies": {"openwop.agents.memoryBackends": "^1", "host.agentRuntime": "supported"}}`,
			`{"kind": "node", "engines": {"openwop": ">=1.1.0 <3.0.0"}, "peerDependencies": {"agents": "^1", "agentRuntime": "supported"}, "peerDependenciesMeta": {"agents":{"facets":["memoryBackends"]}}}`, nil},
		{"alias meta entry moves and facets merge",
			`{"kind": "node", "engines": {"openwop": ">=1.1.0 <3.0.0"}, "peerDependencies": {"host.aiEnvelope.await": "x"}, "peerDependenciesMeta": {"host.aiEnvelope.await": {"optional": true}}}`,
			`{"kind": "node", "engines": {"openwop": ">=1.1.0 <3.0.0"}, "peerDependencies": {"aiEnvelope": "x"}, "peerDependenciesMeta": {"aiEnvelope": {"optional": true, "facets": ["await"]}}}`, nil},
		{"two aliases of one family",
			`{"kind": "node", "engines": {"openwop": ">=1.1.0 <3.0.0"}, "peerDependencies": {"host.webSearch": "x", "host.webResearch": "x"}}`,
			`{"kind": "node", "engines": {"openwop": ">=1.1.0 <3.0.0"}, "peerDependencies": {"webResearch": "x"}}`, nil},
		{"alias of a declared family adds its facets",
			`{"kind": "node", "engines": {"openwop": ">=1.1.0 <3.0.0"}, "peerDependencies": {"aiProviders": "x", "aiProviders.imageGeneration": "x"}}`,
			`{"kind": "node", "engines": {"openwop": ">=1.1.0 <3.0.0"}, "peerDependencies": {"aiProviders": "x"}, "peerDependenciesMeta": {"aiProviders":{"facets":["imageGeneration"]}}}`, nil},
		{"an alias facet the declaration does not list is left out",
			`{"kind": "node", "engines": {"openwop": ">=1.1.0 <3.0.0"}, "peerDependencies": {"host.campaignMessaging": "supported"}}`,
			`{"kind": "node", "engines": {"openwop": ">=1.1.0 <3.0.0"}, "peerDependencies": {"messaging": "supported"}}`,
			[]string{`facets [campaign], which the v2 declaration does not list for messaging`}},
		{"what it cannot decide",
			`{"kind": "node", "engines": {"openwop": "^1.2.0", "node": ">=20"}, "peerDependencies": {"host.fancy": "x"}}`,
			`{"kind": "node", "engines": {"openwop": "^1.2.0", "node": ">=20"}, "peerDependencies": {"host.fancy": "x"}}`,
			[]string{"engines.node", `"^1.2.0": not a plain floor`, `"host.fancy" names no capability family`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, notes, err := ToV2([]byte(tt.src), Options{})
			checkMigrated(t, got, notes, err, tt.want, tt.notes)
		})
	}
	if _, _, err := ToV2([]byte(`[1]`), Options{}); err == nil {
		t.Error("a non-object manifest was migrated")
	}
	if _, _, err := ToV2([]byte(`{"a":`), Options{}); err == nil {
		t.Error("invalid JSON was migrated")
	}
}

// A manifest migrate cannot read is refused at its line and column, with
// the fix; nothing is rewritten.
func TestToV2RefusesAtPlace(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"member twice", "{\n  \"engines\": {},\n  \"engines\": {\"openwop\": \">=1\"}\n}", `3:3: member "engines" appears twice in the top-level object; a reader keeps only one: delete the other`},
		{"member twice inside", `{"peerDependencies": {"a": "1", "a": "2"}}`, `1:33: member "a" appears twice in /peerDependencies`},
		{"byte order mark", "\ufeff{}", "1:1: file starts with a UTF-8 byte order mark"},
		{"invalid UTF-8", "{\n \"name\": \"a\xff\"}", "2:"},
		{"not an object", "\n  [1]", "2:3: pack.json is not a JSON object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := ToV2([]byte(tt.src), Options{})
			var se *SourceError
			if !errors.As(err, &se) || !strings.HasPrefix(err.Error(), tt.want) {
				t.Fatalf("error %v, want a SourceError starting %q", err, tt.want)
			}
		})
	}
}

// fakeCatalog knows node types and packs by name.
type fakeCatalog struct{ nodes, packs map[string]string }

func (c fakeCatalog) NodeVersion(id string) (string, bool) { v, ok := c.nodes[id]; return v, ok }
func (c fakeCatalog) PackVersion(n string) (string, bool)  { v, ok := c.packs[n]; return v, ok }

func TestToV2Pins(t *testing.T) {
	cat := fakeCatalog{
		nodes: map[string]string{"acme.tools.send": "1.4.2", "acme.tools.old": "2.0.0", "acme.tools.nover": "", "acme.tools.pre": "1.0.0-rc.1"},
		packs: map[string]string{"acme.flows": "3.1.0"},
	}
	chain := func(refs, sub string) string {
		return `{"kind": "workflow-chain", "engines": {"openwop": ">=1.1.0 <3.0.0"}, "chains": [{"chainId": "c", "subChains": [{"ref": ` + sub + `}], "dag": {"nodes": [` + refs + `]}}]}`
	}
	tests := []struct {
		name      string
		cat       Catalog
		src, want string
		notes     []string
	}{
		{"bare and range pinned from the catalog", cat,
			chain(`{"id": "a", "typeId": "acme.tools.send"}, {"id": "b", "typeId": "acme.tools.send@^1.2"}`, `{"packName": "acme.flows", "chainId": "x", "version": "^3.0.0"}`),
			chain(`{"id": "a", "typeId": "acme.tools.send@1.4.2"}, {"id": "b", "typeId": "acme.tools.send@1.4.2"}`, `{"packName": "acme.flows", "chainId": "x", "version": "3.1.0"}`), nil},
		{"exact pins and sibling refs are left alone", cat,
			chain(`{"id": "a", "typeId": "acme.tools.send@1.0.0"}`, `"sibling"`),
			chain(`{"id": "a", "typeId": "acme.tools.send@1.0.0"}`, `"sibling"`), nil},
		{"what the catalog cannot decide", cat,
			chain(`{"id": "a", "typeId": "acme.tools.old@^1"}, {"id": "b", "typeId": "core.start"}, {"id": "c", "typeId": "acme.tools.nover"}, {"id": "d", "typeId": "acme.tools.pre"}, {"id": "e", "typeId": "acme.tools.send@latest"}`, `{"packName": "acme.gone", "chainId": "x", "version": "^1"}`),
			chain(`{"id": "a", "typeId": "acme.tools.old@^1"}, {"id": "b", "typeId": "core.start"}, {"id": "c", "typeId": "acme.tools.nover"}, {"id": "d", "typeId": "acme.tools.pre"}, {"id": "e", "typeId": "acme.tools.send@latest"}`, `{"packName": "acme.gone", "chainId": "x", "version": "^1"}`),
			[]string{`version 2.0.0 is outside "^1"`, "no pack in the catalog defines core.start", "knows no version", `"1.0.0-rc.1" is not an exact`, `"latest" is not a version range`, "no pack acme.gone"}},
		{"hostile references: an empty typeId, a catalog version with a leading zero, a number for a version", fakeCatalog{nodes: map[string]string{"acme.tools.zero": "01.2.3"}, packs: cat.packs},
			chain(`{"id": "a", "typeId": "@"}, {"id": "b", "typeId": "acme.tools.zero"}`, `{"packName": "acme.flows", "chainId": "x", "version": 3}`),
			chain(`{"id": "a", "typeId": "@"}, {"id": "b", "typeId": "acme.tools.zero"}`, `{"packName": "acme.flows", "chainId": "x", "version": 3}`),
			[]string{`"@" names no node type`, `"01.2.3" is not an exact`, "version is not a string"}},
		{"a sub-chain without a pack name is the schema's to explain", cat,
			chain(`{"id": "a", "typeId": "acme.tools.send@1.0.0"}`, `{"packName": {"x": 1}, "chainId": "x"}`),
			chain(`{"id": "a", "typeId": "acme.tools.send@1.0.0"}`, `{"packName": {"x": 1}, "chainId": "x"}`), nil},
		{"no catalog: every unpinned reference is a note", nil,
			chain(`{"id": "a", "typeId": "acme.tools.send"}`, `{"packName": "acme.flows", "chainId": "x"}`),
			chain(`{"id": "a", "typeId": "acme.tools.send"}`, `{"packName": "acme.flows", "chainId": "x"}`),
			[]string{"migrate with --catalog", "migrate with --catalog"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, notes, err := ToV2([]byte(tt.src), Options{Catalog: tt.cat})
			checkMigrated(t, got, notes, err, tt.want, tt.notes)
		})
	}
}

// checkMigrated fails t unless ToV2 succeeded with want and notes saying,
// in order, what wantNotes say.
func checkMigrated(t *testing.T, got []byte, notes []Note, err error, want string, wantNotes []string) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if len(notes) != len(wantNotes) {
		t.Fatalf("notes %+v, want %d", notes, len(wantNotes))
	}
	for i, n := range notes {
		if !strings.Contains(n.Message, wantNotes[i]) {
			t.Errorf("note %d: %q, want it to say %q", i, n.Message, wantNotes[i])
		}
	}
}
