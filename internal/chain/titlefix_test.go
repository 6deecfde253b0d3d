package chain

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/catalog"
	"github.com/wop-cli/wop/internal/jsonpos"
)

// TestTitleFixReadsTheMembersSchema: a foreign title in a node's config is
// judged by the config schema (closed, no title: delete the key), not by
// the input schema, which here declares a title.
func TestTitleFixReadsTheMembersSchema(t *testing.T) {
	c, err := catalog.Open(t.Context(), filepath.Join("testdata", "catalog"), catalog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	const m = `{"chains": [
  {"chainId": "a", "label": "Alpha", "dag": {"nodes": [{"id": "post", "typeId": "acme.tools.closed", "config": {"title": "Beta"}, "inputs": {"title": "Beta"}}], "edges": []}},
  {"chainId": "b", "label": "Beta", "dag": {"nodes": [{"id": "x", "typeId": "acme.tools.count"}], "edges": []}}]}`
	doc, err := jsonpos.Parse([]byte(m))
	if err != nil {
		t.Fatal(err)
	}
	d := Analyze(doc.Root, Options{Catalog: c}).DAGs[0]
	got := map[string]string{}
	for _, f := range d.Findings {
		if f.Rule == RuleNodeTitleForeign {
			got[f.Pointer] = f.Message
		}
	}
	if msg := got["/chains/0/dag/nodes/0/config/title"]; !strings.Contains(msg, "config schema declares no title") || !strings.Contains(msg, "delete the key") {
		t.Errorf("config title: %q", msg)
	}
	if msg := got["/chains/0/dag/nodes/0/inputs/title"]; !strings.Contains(msg, "give it this chain's title") {
		t.Errorf("inputs title (declared): %q", msg)
	}
}
