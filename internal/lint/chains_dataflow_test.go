package lint

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/tarball"
)

// TestChainInputUnboundDataflow: each way a node is fed, and where wop
// cannot tell. The catalog's push node requires deviceToken; its upstream
// node types differ in the output schema they declare.
func TestChainInputUnboundDataflow(t *testing.T) {
	const s = `"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object"`
	cat := exampleCatalog(t, []ExampleFile{
		{"tools/pack.json", `{"name": "community.acme.tools", "version": "1.0.0", "nodes": [
  {"typeId": "acme.push", "version": "1.0.0", "role": "side-effect", "inputSchemaRef": "push.input.json"},
  {"typeId": "acme.closed", "version": "1.0.0", "role": "pure", "outputSchemaRef": "closed.json"},
  {"typeId": "acme.open", "version": "1.0.0", "role": "pure", "outputSchemaRef": "open.json"},
  {"typeId": "acme.noschema", "version": "1.0.0", "role": "pure"},
  {"typeId": "acme.wrapped", "version": "1.0.0", "role": "pure", "outputSchemaRef": "wrapped.json"},
  {"typeId": "acme.defaulted", "version": "1.0.0", "role": "side-effect", "inputSchemaRef": "defaulted.input.json"}
]}`},
		{"tools/push.input.json", `{` + s + `, "required": ["deviceToken"], "properties": {"deviceToken": {"type": "string"}}}`},
		{"tools/closed.json", `{` + s + `, "additionalProperties": false, "properties": {"text": {"type": "string"}, "device": {"type": "object", "additionalProperties": false, "properties": {"deviceToken": {"type": "string"}}}}}`},
		{"tools/open.json", `{` + s + `, "properties": {"text": {"type": "string"}}}`},
		{"tools/wrapped.json", `{` + s + `, "additionalProperties": false, "properties": {"output": {"type": "object", "additionalProperties": false, "properties": {"text": {"type": "string"}}}}}`},
		{"tools/defaulted.input.json", `{` + s + `, "required": ["deviceToken"], "properties": {"deviceToken": {"type": "string", "default": "broadcast"}}}`},
	})
	closedParams := `{"type": "object", "additionalProperties": false, "properties": {"topic": {"type": "string"}}}`
	tests := []struct {
		name, params, nodes, edges string
		want                       string // a part of the one finding; "" for none
	}{
		{"closed upstream", closedParams, `{"id": "a", "typeId": "acme.closed"}, {"id": "n", "typeId": "acme.push"}`, `{"from": "a", "to": "n"}`, `the output of "a"`},
		{"open upstream", closedParams, `{"id": "a", "typeId": "acme.open"}, {"id": "n", "typeId": "acme.push"}`, `{"from": "a", "to": "n"}`, ""},
		{"upstream without output schema", closedParams, `{"id": "a", "typeId": "acme.noschema"}, {"id": "n", "typeId": "acme.push"}`, `{"from": "a", "to": "n"}`, ""},
		{"upstream outside the catalog", closedParams, `{"id": "a", "typeId": "core.noop"}, {"id": "n", "typeId": "acme.push"}`, `{"from": "a", "to": "n"}`, ""},
		{"one of two upstreams may carry it", closedParams, `{"id": "a", "typeId": "acme.closed"}, {"id": "b", "typeId": "acme.open"}, {"id": "n", "typeId": "acme.push"}`, `{"from": "a", "to": "n"}, {"from": "b", "to": "n"}`, ""},
		{"an output member is handed over", closedParams, `{"id": "a", "typeId": "acme.wrapped"}, {"id": "n", "typeId": "acme.push"}`, `{"from": "a", "to": "n"}`, `member "output" of the output of "a"`},
		{"edge from a member that carries it", closedParams, `{"id": "a", "typeId": "acme.closed"}, {"id": "n", "typeId": "acme.push"}`, `{"from": "a.device", "to": "n"}`, ""},
		{"edge from a member that does not", closedParams, `{"id": "a", "typeId": "acme.wrapped"}, {"id": "n", "typeId": "acme.push"}`, `{"from": "a.output", "to": "n"}`, `member "output"`},
		{"edge to the port", closedParams, `{"id": "a", "typeId": "acme.closed"}, {"id": "n", "typeId": "acme.push"}`, `{"from": "a.text", "to": "n.deviceToken"}`, ""},
		{"edges only to other ports", closedParams, `{"id": "a", "typeId": "acme.closed"}, {"id": "n", "typeId": "acme.push"}`, `{"from": "a.text", "to": "n.body"}`, `which inputs does not set and no edge feeds ("to": "n.deviceToken"); the node fails`},
		{"source node, closed parameters", closedParams, `{"id": "n", "typeId": "acme.push"}`, ``, `receives the chain's parameters`},
		{"source node, parameters declare it", `{"type": "object", "additionalProperties": false, "properties": {"deviceToken": {"type": "string"}}}`, `{"id": "n", "typeId": "acme.push"}`, ``, ""},
		{"source node, open parameters", `{"type": "object", "properties": {"topic": {"type": "string"}}}`, `{"id": "n", "typeId": "acme.push"}`, ``, ""},
		{"source node, no parameters", ``, `{"id": "n", "typeId": "acme.push"}`, ``, ""},
		{"the node's schema defaults it", closedParams, `{"id": "n", "typeId": "acme.defaulted"}`, ``, ""},
		{"inputs set it", closedParams, `{"id": "a", "typeId": "acme.closed"}, {"id": "n", "typeId": "acme.push", "inputs": {"deviceToken": "{{params.topic}}"}}`, `{"from": "a", "to": "n"}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			chain := `{"chainId": "acme.c", "version": "1.0.0", "label": "C", "description": "C."`
			if tt.params != "" {
				chain += `, "parameters": ` + tt.params
			}
			chain += `, "dag": {"nodes": [` + tt.nodes + `], "edges": [` + tt.edges + `]}}`
			manifest := `{"name": "community.acme.demo", "version": "1.0.0", "kind": "workflow-chain", "description": "D.", "license": "Apache-2.0", "engines": {"openwop": ">=1.0.0 <2.0.0"}, "chains": [` + chain + `]}`
			if !json.Valid([]byte(manifest)) {
				t.Fatalf("fixture is not JSON: %s", manifest)
			}
			got := lintExampleWith(t, []ExampleFile{{"pack.json", manifest}}, tarball.DefaultLimits, "chain-input-unbound", Options{Catalog: cat})
			switch {
			case tt.want == "" && len(got) > 0:
				t.Errorf("unexpected finding: %s", got[0].Message)
			case tt.want != "" && len(got) != 1:
				t.Errorf("got %d findings, want 1 with %q: %+v", len(got), tt.want, got)
			case tt.want != "" && !strings.Contains(got[0].Message, tt.want):
				t.Errorf("finding %q does not say %q", got[0].Message, tt.want)
			}
		})
	}
}
