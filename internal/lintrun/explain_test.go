package lintrun

import (
	"os"
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/invocation"
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

// TestExplainSaysHowToSwitchOff: --explain, a hover's explanation and
// docs/rules.md tell, for every rule, how to switch it off or ignore a
// finding, in one shared sentence naming the rule.
func TestExplainSaysHowToSwitchOff(t *testing.T) {
	rulesDoc, err := os.ReadFile("../../docs/rules.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range lint.All() {
		if r.Deprecated != "" {
			continue
		}
		want := r.ConfigNote()
		if !strings.Contains(want, "rules: {"+r.ID+": off}") || !strings.Contains(want, "ignore") {
			t.Fatalf("ConfigNote(%s) = %q", r.ID, want)
		}
		if enforced := strings.HasPrefix(want, "Enforced:"); enforced != r.Enforced || enforced && strings.HasPrefix(want, "Switch it off") {
			t.Errorf("ConfigNote(%s) = %q: an enforced rule is said to be enforced, and only then", r.ID, want)
		}
		text, _, err := Explain(lint.All(), r.ID, "")
		if err != nil || !strings.Contains(text, want) {
			t.Errorf("--explain %s does not say how to switch it off: %v\n%s", r.ID, err, text)
		}
		if hover, _, _ := ExplainFinding(lint.All(), diag.Diagnostic{Rule: r.ID, Pointer: "/nowhere"}); !strings.Contains(hover, want) {
			t.Errorf("the hover on %s does not say how to switch it off", r.ID)
		}
		if !strings.Contains(string(rulesDoc), "\n## "+r.ID+"\n") || !strings.Contains(string(rulesDoc), want) {
			t.Errorf("docs/rules.md does not say how to switch %s off", r.ID)
		}
	}
}

// TestExplainNamesInvoked: --explain's summary, its note on switching
// the rule off and a deprecated rule's reason name wop's commands as the
// user ran wop ("npx wop pack lint"), as its prose and "wop says" do.
func TestExplainNamesInvoked(t *testing.T) {
	const invoked invocation.Name = "npx wop"
	r := lint.All().Lookup("placeholder-left")
	text, _, err := Explain(lint.All(), r.ID, invoked)
	if err != nil {
		t.Fatal(err)
	}
	for _, part := range []string{r.Summary, r.ConfigNote()} {
		if rewritten := invoked.Mentions(part); rewritten == part || !strings.Contains(text, rewritten) {
			t.Errorf("--explain %s, started as %s, does not say %q:\n%s", r.ID, invoked, rewritten, text)
		}
	}
	old := &lint.Rule{ID: "old-rule", Summary: "Retired.", Deprecated: "wop pack migrate does its work now"}
	if text, _, _ := Explain(lint.Rules{old}, old.ID, invoked); !strings.Contains(text, "\nnpx wop pack migrate does its work now\n") {
		t.Errorf("--explain of a deprecated rule, started as %s:\n%s", invoked, text)
	}
}
