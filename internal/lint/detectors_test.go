package lint

import (
	"slices"
	"testing"

	"github.com/wop-cli/wop/internal/tarball"
)

func TestToolCalls(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{"Call openwop:core.http.fetch to read it.", []string{"openwop:core.http.fetch"}},
		{"Do not call `openwop:core.dispatch.*` yourself.", nil},
		{"Never use openwop:core.http.fetch here.", nil},
		{"You must not call openwop:a.b; call openwop:c.d instead.", []string{"openwop:c.d"}},
		{"Tools: openwop:core.mcp.* are wildcards.", nil},
		{"Don't stop. Use openwop:core.http.fetch.", []string{"openwop:core.http.fetch"}},
	}
	for _, tt := range tests {
		var got []string
		for _, c := range toolCalls(tt.text) {
			got = append(got, c.ID)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("toolCalls(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
	// A prompt's finding is placed at the mention: the offset is where
	// "openwop:" starts.
	text := "# Tools\n\nYou must not call openwop:a.b; call openwop:c.d instead."
	if got := toolCalls(text); len(got) != 1 || text[got[0].Off:got[0].Off+len(got[0].ID)] != "openwop:c.d" {
		t.Errorf("toolCalls(%q) = %+v, want openwop:c.d at its offset", text, got)
	}
}

func TestImpureMention(t *testing.T) {
	tests := []struct{ text, want string }{
		{"Generates a UUID v4", "UUID"},
		{"Seeded pseudo-random number generator: same seed, same sequence", ""},
		{"Draws a random sample", "random"},
		{"ctx.triggerData carries the fire timestamp and timezone", ""},
		{"Generates a timestamp for the record", "Generates a timestamp"},
		{"Returns the current time", "current time"},
	}
	for _, tt := range tests {
		if got := impureMention(tt.text); got != tt.want {
			t.Errorf("impureMention(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

// TestPureConfigDefault: a pure node whose config defaults to a random or
// clock mode is nondeterministic; a deterministic default is not.
func TestPureConfigDefault(t *testing.T) {
	manifest := `{"name": "community.acme.demo", "version": "1.0.0", "engines": {"openwop": ">=1.1.0 <2.0.0"},
	  "runtime": {"language": "javascript", "entry": "index.mjs"},
	  "nodes": [{"typeId": "community.acme.demo.key", "version": "1.0.0", "role": "pure", "label": "Key", "configSchemaRef": "schemas/key.config.json"}]}`
	for _, tt := range []struct {
		def  string
		want int
	}{{"uuid", 1}, {"now", 1}, {"composite", 0}} {
		files := []ExampleFile{{"pack.json", manifest}, {"index.mjs", "export const nodes = {};"},
			{"schemas/key.config.json", `{"type": "object", "properties": {"mode": {"type": "string", "default": "` + tt.def + `"}}}`}}
		if got := lintExample(t, files, tarball.DefaultLimits, "role-pure-nondeterministic"); len(got) != tt.want {
			t.Errorf("default %q: %d findings, want %d: %+v", tt.def, len(got), tt.want, got)
		}
	}
}

// TestPromptProhibitionNotPhantom: "do not call openwop:core.dispatch.*" in
// a prompt is not a call of a tool missing from the allowlist.
func TestPromptProhibitionNotPhantom(t *testing.T) {
	files := []ExampleFile{
		{"pack.json", `{"name": "community.acme.demo", "version": "1.0.0", "engines": {"openwop": ">=1.1.0 <2.0.0"},
		  "runtime": {"language": "remote", "entry": "pack.json"},
		  "agents": [{"agentId": "community.acme.demo.a", "persona": "A", "modelClass": "general", "systemPromptRef": "prompts/a.md"}]}`},
		{"prompts/a.md", "You coordinate. Do not call `openwop:core.dispatch.*` tools; hand off instead.\nNever call openwop:core.http.fetch directly.\n"},
	}
	if got := lintExample(t, files, tarball.DefaultLimits, "prompt-tool-id-unresolved"); len(got) > 0 {
		t.Errorf("prohibitions and wildcards reported as tool calls: %+v", got)
	}
}
