package lint

import (
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/diag"
)

// withRenamed is the registry plus a rule retired in favour of ref-missing,
// as a rename would leave it.
func withRenamed() Rules {
	return append(All(), &Rule{ID: "ref-absent", Severity: diag.Error, Since: "0.1.0", Summary: "old name of ref-missing",
		Deprecated: "renamed in 0.2.0", ReplacedBy: "ref-missing"})
}

func TestResolve(t *testing.T) {
	rules := withRenamed()
	tests := []struct {
		id, want, warning string
	}{
		{"ref-missing", "ref-missing", ""},
		{"agf-unknown-field", "agf-unknown-field", ""},
		{"ref-absent", "ref-missing", "rule ref-absent is deprecated (renamed in 0.2.0); read as ref-missing: write ref-missing instead"},
		{"nope", "", ""},
	}
	for _, tt := range tests {
		r, warning := rules.Resolve(tt.id)
		got := ""
		if r != nil {
			got = r.ID
		}
		if got != tt.want || warning != tt.warning {
			t.Errorf("Resolve(%q) = %q, %q; want %q, %q", tt.id, got, warning, tt.want, tt.warning)
		}
	}
}

// TestBaselineUpgrade: a baseline written under a deprecated id keeps
// accepting the finding its replacement now reports, and says so once.
func TestBaselineUpgrade(t *testing.T) {
	b := &Baseline{Version: 1, Findings: []BaselineEntry{
		{Rule: "ref-absent", File: "pack.json", Pointer: "/a", Message: "m"},
		{Rule: "ref-absent", File: "pack.json", Pointer: "/b", Message: "m"},
	}}
	warnings := b.Upgrade(withRenamed())
	if len(warnings) != 1 || !strings.Contains(warnings[0], "read as ref-missing") {
		t.Errorf("warnings = %q", warnings)
	}
	left, n := b.Filter([]diag.Diagnostic{{Rule: "ref-missing", File: "pack.json", Pointer: "/a", Message: "m"}})
	if n != 1 || len(left) != 0 {
		t.Errorf("the upgraded baseline did not accept the finding: %d accepted, %+v left", n, left)
	}
}

// TestAgentFormatRulesInRegistry: the agf-* rules are registry rules, so
// every reader of the registry (config, rules, --explain, SARIF) sees them.
func TestAgentFormatRulesInRegistry(t *testing.T) {
	r := Lookup("agf-step-unknown-agent")
	if r == nil || r.AgentFormat == nil {
		t.Fatal("agf-step-unknown-agent is not in the registry")
	}
	if doc, err := Explain(r.ID); err != nil || len(doc.Bad) == 0 || len(doc.Good) == 0 || doc.Want == "" {
		t.Errorf("agf-step-unknown-agent has no examples: %v %+v", err, doc)
	}
	found := false
	for _, info := range Infos() {
		found = found || info.ID == "agf-schema" && info.Since != ""
	}
	if !found {
		t.Error("Infos (SARIF's rule table) lacks agf-schema or its Since")
	}
}
