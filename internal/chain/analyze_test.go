package chain

import (
	"testing"

	"github.com/wop-cli/wop/internal/catalog"
	"github.com/wop-cli/wop/internal/jsonpos"
)

// TestRole: a node's role comes from its type's declared role and
// capabilities, or from the spec's and reference host's typeIds; never
// from how its typeId is spelt.
func TestRole(t *testing.T) {
	for _, tc := range []struct {
		name   string
		typeID string
		typ    *catalog.NodeType // nil: no pack of the catalog defines it
		want   Role
	}{
		{"declared pure, spelt like a gate", "core.flow.aggregate-numeric", &catalog.NodeType{Role: "pure", Capabilities: []string{"cacheable"}}, RolePure},
		{"declared side-effect, spelt like a gate", "agent.delegate.smart", &catalog.NodeType{Role: "side-effect"}, RoleSideEffect},
		{"human-input with a neutral typeId", "acme.tools.ask-person", &catalog.NodeType{Role: "human-input"}, RoleGate},
		{"declared gate", "brand.theme.review", &catalog.NodeType{Role: "gate", Capabilities: []string{"side-effectful"}}, RoleGate},
		{"spec gate, no catalog", "core.approvalGate", nil, RoleGate},
		{"host gate declared side-effect", "core.hitl.approval-request", &catalog.NodeType{Role: "side-effect"}, RoleGate},
		{"unknown type spelt like a gate", "acme.tools.approvalGate", nil, ""},
		{"unknown type spelt like a review", "acme.tools.review", nil, ""},
		{"spec trigger declared pure", "core.trigger.manual", &catalog.NodeType{Role: "pure"}, RoleTrigger},
		{"declared trigger", "acme.hooks.on-push", &catalog.NodeType{Role: "trigger"}, RoleTrigger},
		{"unknown type spelt like a trigger", "acme.tools.retrigger-build", nil, ""},
		{"side-effectful capability", "acme.tools.send", &catalog.NodeType{Role: "action", Capabilities: []string{"side-effectful"}}, RoleSideEffect},
		{"unknown", "acme.tools.x", nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := &Node{TypeID: tc.typeID, Type: tc.typ}
			if got := role(n); got != tc.want {
				t.Errorf("role(%s) = %q, want %q", tc.typeID, got, tc.want)
			}
		})
	}
}

// TestGating: an edge's condition and trigger rule are read as pack.json
// has them, the condition said in words.
func TestGating(t *testing.T) {
	doc, err := jsonpos.Parse([]byte(`{"chains": [{"chainId": "c", "dag": {"nodes": [{"id": "a", "typeId": "x"}, {"id": "b", "typeId": "x"}],
	 "edges": [
	  {"from": "a", "to": "b", "condition": {"type": "falsy", "left": "approved"}, "triggerRule": "none_failed"},
	  {"from": "a", "to": "b", "condition": {"type": "equals", "left": "branch", "right": "then"}},
	  {"from": "a", "to": "b", "condition": {"type": "notEquals", "left": "willFile", "right": "yes"}},
	  {"from": "a", "to": "b", "condition": {"type": "contains", "left": "branches", "right": "low"}},
	  {"from": "a", "to": "b", "condition": {"type": "truthy", "left": "slot0Live"}},
	  {"from": "a", "to": "b", "condition": {"type": "matches", "left": "x", "right": "^a"}},
	  {"from": "a", "to": "b", "triggerRule": "all_success"},
	  {"from": "a", "to": "b"},
	  {"from": "a", "to": "b", "condition": null},
	  {"from": "a", "to": "b", "condition": {"type": "equals", "left": "aVeryLongOutputMemberNameThatGoesOnAndOn", "right": "and a long value too"}}
	 ]}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	d := Analyze(doc.Root, Options{}).DAGs[0]
	want := []struct{ when, rule string }{
		{"not approved", "none_failed"},
		{`branch = "then"`, ""},
		{`willFile ≠ "yes"`, ""},
		{`branches contains "low"`, ""},
		{"slot0Live", ""},
		{`{"left":"x","right":"^a","type":"matches"}`, ""},
		{"", "all_success"},
		{"", ""},
		{"", ""}, // a null condition is none
		{`aVeryLongOutputMemberNameThatGoesOnAndOn = "and a long valu…`, ""}, // cut to maxWhen runes
	}
	for i, w := range want {
		e := d.Edges[i]
		if e.When != w.when || e.TriggerRule != w.rule || (w.when == "") != (e.Condition == nil) {
			t.Errorf("edge %d: when %q rule %q condition %v, want %q %q", i, e.When, e.TriggerRule, e.Condition, w.when, w.rule)
		}
	}
}
