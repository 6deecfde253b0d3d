package migrate

import (
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
		{"unbounded floor, chain kind",
			`{"chains": [], "engines": {"openwop": ">=1.0.0"}}`,
			`{"chains": [], "engines": {"openwop": ">=1.0.0 <3.0.0"}, "kind": "workflow-chain"}`, nil},
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
		{"what it cannot decide",
			`{"kind": "node", "engines": {"openwop": "^1.2.0", "node": ">=20"}, "peerDependencies": {"host.fancy": "x"}}`,
			`{"kind": "node", "engines": {"openwop": "^1.2.0", "node": ">=20"}, "peerDependencies": {"host.fancy": "x"}}`,
			[]string{"engines.node", `"^1.2.0": not a plain floor`, `"host.fancy" names no capability family`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, notes, err := ToV2([]byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
			if len(notes) != len(tt.notes) {
				t.Fatalf("notes %+v, want %d", notes, len(tt.notes))
			}
			for i, n := range notes {
				if !strings.Contains(n.Message, tt.notes[i]) {
					t.Errorf("note %d: %q, want it to say %q", i, n.Message, tt.notes[i])
				}
			}
		})
	}
	if _, _, err := ToV2([]byte(`[1]`)); err == nil {
		t.Error("a non-object manifest was migrated")
	}
	if _, _, err := ToV2([]byte(`{"a":`)); err == nil {
		t.Error("invalid JSON was migrated")
	}
}
