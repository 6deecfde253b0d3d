package chain

import (
	"testing"

	"github.com/wop-cli/wop/internal/catalog"
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
