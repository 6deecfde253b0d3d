package assist

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/catalog"
)

const hoverChain = `{"name": "vendor.acme.flows", "version": "1.0.0", "kind": "workflow-chain", "engines": {"openwop": ">=1.1.0 <2.0.0"},
 "chains": [{"chainId": "vendor.acme.flows.main", "label": "Main",
  "parameters": {"type": "object", "additionalProperties": false, "properties": {"topic": {"type": "string"}}},
  "dag": {
   "nodes": [
    {"id": "sum<|S>", "typeId": "vendor.acme.notify.summarize"},
    {"id": "pu<|P>sh", "typeId": "vendor.acme.notify.push", "inputs": {"title": "Main"}}
   ],
   "edges": [{"from": "sum.text", "to": "push.text"}]}}]}`

// TestHoverChainNode: hover on a chain node's id says where each input
// comes from, from the chain analysis: an edge and port, the node's
// inputs, a parameter, the schema's default, or UNBOUND.
func TestHoverChainNode(t *testing.T) {
	c, err := catalog.Open(t.Context(), filepath.Join("testdata", "chaincatalog"), catalog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, cursor string
		env          Env
		want, not    []string
	}{
		{"upstream node", "<|S>", Env{Catalog: c}, []string{
			"**node `sum`** (`vendor.acme.notify.summarize`, pure)",
			"- `topic` (required): chain parameter `topic`",
		}, []string{"UNBOUND"}},
		{"downstream node", "<|P>", Env{Catalog: c}, []string{
			"**node `push`** (`vendor.acme.notify.push`, side-effect)",
			"- `text` (required): edge from `sum.text`",
			"- `title` (required): the node's `inputs`",
			"- `deviceToken` (required): **UNBOUND**: nothing sets it or feeds it",
			"- `sound`: default: its schema gives it a default",
			"- `badge`: not set (optional)",
			"chain-input-unbound: node \"push\": vendor.acme.notify.push requires input \"deviceToken\"",
		}, nil},
		{"no catalog", "<|P>", Env{}, []string{
			"**node `push`** (`vendor.acme.notify.push`)",
			"- `title`: the node's `inputs`",
			"- `text`: edge from `sum.text`",
		}, []string{"UNBOUND"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text := strings.NewReplacer("<|S>", "", "<|P>", "").Replace(hoverChain)
			marked := strings.NewReplacer("<|S>", "", "<|P>", "").Replace(strings.Replace(hoverChain, tc.cursor, mark, 1))
			doc, off := at(t, "chain/pack.json", marked)
			if string(doc.Text) != text {
				t.Fatalf("fixture: %s", doc.Text)
			}
			md, _, ok := Hover(tc.env, doc, off)
			if !ok {
				t.Fatal("no hover")
			}
			for _, w := range tc.want {
				if !strings.Contains(md, w) {
					t.Errorf("markdown lacks %q:\n%s", w, md)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(md, w) {
					t.Errorf("markdown has %q:\n%s", w, md)
				}
			}
		})
	}
}

// TestHoverChainNodeInvalidJSON: while the buffer is not valid JSON the
// analysis cannot run, and the hover says only what the schema says.
func TestHoverChainNodeInvalidJSON(t *testing.T) {
	doc, off := at(t, "chain/pack.json", `{"chains": [{"dag": {"nodes": [{"id": "pu<|>sh", "typeId": "x"`)
	md, _, _ := Hover(Env{}, doc, off)
	if strings.Contains(md, "**node") {
		t.Errorf("hover describes a node of a buffer that does not parse:\n%s", md)
	}
}
