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

// TestTypeIDInWords: a typeId the schema's pattern refuses is explained in
// words (what is wrong, what one looks like, an example), never as a regex.
func TestTypeIDInWords(t *testing.T) {
	for _, tt := range []struct {
		id   string
		v2   bool
		want string
	}{
		{"Community.acme.x", false, `starts with "C", not a lowercase letter`},
		{"community.acme.bad node", false, `holds " "`},
		{"", false, "is empty"},
		{"summarize", true, `has no "."`},
		{"community..x", true, "has an empty part"},
		{"community.acme.Bad", true, `has the part "Bad", which starts with "B"`},
		{"Community.acme.x", true, `has the part "Community", which starts with "C"`},
		{"community.acme.snake_case", true, `holds "_" in the part "snake_case"`},
		{"comMunity.acme.x", true, `holds "M" in the part "comMunity"`},
	} {
		got := typeIDInWords(tt.id, tt.v2, "community.acme.demo")
		if !strings.Contains(got, tt.want) || !strings.Contains(got, "<pack name>.<node>, e.g. community.acme.demo.summarize") || strings.Contains(got, "^[") {
			t.Errorf("typeIDInWords(%q, v2 %v) = %q, want it to say %q and what a typeId looks like", tt.id, tt.v2, got, tt.want)
		}
	}
}
