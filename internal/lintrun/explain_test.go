package lintrun

import (
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/lint"
)

// TestExplainFindingKeepsOnlyItsPropertysExample: the rule's example is
// shown beside a finding on the property it is about, not beside another.
func TestExplainFindingKeepsOnlyItsPropertysExample(t *testing.T) {
	for _, tt := range []struct {
		d           diag.Diagnostic
		wantExample bool
	}{
		{diag.Diagnostic{Rule: "manifest-schema", Pointer: "/agents/0/modelClass"}, false},
		{diag.Diagnostic{Rule: "manifest-schema", Pointer: "/agents/0/toolAllowList"}, true},
		{diag.Diagnostic{Rule: "manifest-schema", Pointer: ""}, true},
		{diag.Diagnostic{Rule: "ref-missing", Pointer: "/agents/1/systemPromptRef"}, true},
		{diag.Diagnostic{Rule: "ref-missing", Pointer: "/nodes/3/configSchemaRef"}, false},
	} {
		text, found, err := ExplainFinding(lint.All(), tt.d)
		if !found || err != nil {
			t.Fatalf("%v: found %v, %v", tt.d, found, err)
		}
		if got := strings.Contains(text, "\nBad:\n"); got != tt.wantExample {
			t.Errorf("%s at %q: example shown %v, want %v:\n%s", tt.d.Rule, tt.d.Pointer, got, tt.wantExample, text)
		}
		if !tt.wantExample && !strings.Contains(text, "wop pack lint --explain "+tt.d.Rule) {
			t.Errorf("%s at %q: no pointer to --explain:\n%s", tt.d.Rule, tt.d.Pointer, text)
		}
	}
}
