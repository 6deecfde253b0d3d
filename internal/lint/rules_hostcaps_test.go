package lint

import "testing"

func TestPeerDepHostCapability(t *testing.T) {
	tests := []struct {
		name         string
		host, unprov bool // a host capability; one no known host provides
	}{
		{"host.agentRuntime", true, true},
		{"host.chat", true, false},
		{"fs", true, false},
		{"mcp", true, false},
		{"aiProviders.imageGeneration", true, false}, // a facet of a provided family
		{"secrets.resolveInPack", true, false},
		{"host.db", true, true},
		{"db", true, true},
		{"messaging", true, true},
		{"openwop.agents.memoryBackends", false, false},
		{"community.acme.tools", false, false},
	}
	known := knownHostCapabilities()
	for _, tt := range tests {
		if got := isHostCapability(tt.name); got != tt.host {
			t.Errorf("isHostCapability(%q) = %v, want %v", tt.name, got, tt.host)
		}
		if got := tt.host && !provided(known, tt.name); got != tt.unprov {
			t.Errorf("%q unprovided = %v, want %v", tt.name, got, tt.unprov)
		}
	}
}
