package catalog

import (
	"bytes"
	"testing"

	"github.com/wop-cli/wop/internal/testutil/filetree"
)

// TestListing: the table, the summary line and the JSON `wop pack
// catalog` prints.
func TestListing(t *testing.T) {
	dir := t.TempDir()
	filetree.Write(t, dir, toolsPack)
	c, err := loadFolder(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	c.Source = "cat"
	var b bytes.Buffer
	if err := c.WriteTable(&b); err != nil {
		t.Fatal(err)
	}
	want := "TYPEID                     PACK                        ROLE         SCHEMAS\n" +
		"community.acme.tools.send  community.acme.tools@1.2.0  side-effect  config,input\n"
	if b.String() != want {
		t.Errorf("table:\n%s\nwant:\n%s", b.String(), want)
	}
	if got, want := c.Summary(), "cat: 2 packs, 1 node types, 1 agents"; got != want {
		t.Errorf("summary %q, want %q", got, want)
	}
	b.Reset()
	if err := c.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	for _, part := range []string{`"source": "cat"`, `"typeId": "community.acme.tools.send"`, `"configSchemaRef": "schemas/send.config.json"`, `"agentIds": [`, `"kind": "workflow-chain"`} {
		if !bytes.Contains(b.Bytes(), []byte(part)) {
			t.Errorf("JSON lacks %s:\n%s", part, b.String())
		}
	}
}
