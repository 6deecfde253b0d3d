package lint

import (
	"strings"
	"testing"
)

// TestSchemaIDMismatchCause: the message guesses the cause from the $id
// itself: another pack's name (a copied schema or a renamed pack) is not
// called a missed bump, an old version of this pack is, and an $id off the
// registry's schema base gets no guess.
func TestSchemaIDMismatchCause(t *testing.T) {
	manifest := `{"name":"community.acme.demo","version":"1.0.0","description":"Demo.","license":"Apache-2.0",` +
		`"engines":{"openwop":">=1.1.0 <2.0.0"},"runtime":{"language":"remote","entry":"pack.json"},` +
		`"agents":[{"agentId":"community.acme.demo.a","persona":"A","modelClass":"general","systemPrompt":"Hi.",` +
		`"handoff":{"taskSchemaRef":"schemas/task.json"}}]}`
	for id, want := range map[string]string{
		"https://packs.openwop.dev/community.you.notes/1.0.0/task.json":   `(it names the pack "community.you.notes": copied from another pack, or the pack renamed?)`,
		"https://packs.openwop.dev/community.acme.demo/0.9.0/task.json":   "(left at an old version after a bump?)",
		"https://schemas.example.com/community.acme.demo/1.0.0/task.json": `must be "https://packs.openwop.dev/community.acme.demo/1.0.0/task.json"`,
	} {
		ds := lintExample(t, []ExampleFile{{"pack.json", manifest}, {"schemas/task.json", `{"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"` + id + `","type":"object"}`}}, testLimits(t, ""), "schema-id-mismatch")
		if len(ds) != 1 || !strings.HasSuffix(ds[0].Message, want) {
			t.Errorf("$id %s: %v, want a message ending %s", id, ds, want)
		}
	}
}

// TestAgentIDWaitsForTheName: with a pack name that breaks the naming
// rules, agent-id-not-under-pack-name does not tell the author to write an
// agentId built from that bad name ("Community.Acme_X.notes").
func TestAgentIDWaitsForTheName(t *testing.T) {
	manifest := `{"name":"Community.Acme_X","version":"1.0.0","engines":{"openwop":">=1.1.0 <2.0.0"},` +
		`"runtime":{"language":"remote","entry":"pack.json"},` +
		`"agents":[{"agentId":"community.acme.x.notes","persona":"A","modelClass":"general","systemPrompt":"Hi."}]}`
	if ds := lintExample(t, []ExampleFile{{"pack.json", manifest}}, testLimits(t, ""), "agent-id-not-under-pack-name"); len(ds) != 0 {
		t.Errorf("findings %v, want none until the name is valid", ds)
	}
	if ds := lintExample(t, []ExampleFile{{"pack.json", manifest}}, testLimits(t, ""), "manifest-schema"); len(ds) == 0 {
		t.Error("the bad name itself is not reported")
	}
}

// TestAgentIDPatternInWords: an agentId that breaks the ids' grammar is
// explained part by part, as a pack name is, not printed as the schema's
// regular expression.
func TestAgentIDPatternInWords(t *testing.T) {
	for id, want := range map[string]string{
		"acme_x.a":                   `agentId "acme_x.a": the first part "acme_x" is not one of core, vendor, community, private or local; an agentId is <pack name>.<agent>`,
		"community.acme.demo.9lives": `agentId "community.acme.demo.9lives": part 4 "9lives" starts with '9'`,
	} {
		manifest := `{"name":"community.acme.demo","version":"1.0.0","engines":{"openwop":">=1.1.0 <2.0.0"},` +
			`"runtime":{"language":"remote","entry":"pack.json"},` +
			`"agents":[{"agentId":"` + id + `","persona":"A","modelClass":"general","systemPrompt":"Hi."}]}`
		ds := lintExample(t, []ExampleFile{{"pack.json", manifest}}, testLimits(t, ""), "manifest-schema")
		if len(ds) != 1 || !strings.HasPrefix(ds[0].Message, want) || strings.Contains(ds[0].Message, "pattern") {
			t.Errorf("agentId %s: %v\nwant a message starting %s", id, ds, want)
		}
	}
}
