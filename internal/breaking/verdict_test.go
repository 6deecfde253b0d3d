package breaking

import "testing"

// TestVerdict: the line under breaking's text report.
func TestVerdict(t *testing.T) {
	r := &Result{OldVersion: "1.0.0", NewVersion: "1.0.1", Needed: Major, Made: Patch, Accepted: 2}
	want := "1.0.0 -> 1.0.1: the changes need a major bump, the version makes a patch bump (2 accepted in .wop.yaml)"
	if got := r.Verdict(); got != want {
		t.Errorf("%q, want %q", got, want)
	}
	r = &Result{OldVersion: "1.0.0", NewVersion: "1.0.0"}
	if got, want := r.Verdict(), "1.0.0 -> 1.0.0: the changes need no bump, the version makes no bump"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}

// TestReleaseRules: lint --against adds exactly the two verdict rules.
func TestReleaseRules(t *testing.T) {
	var ids []string
	for _, r := range ReleaseRules() {
		ids = append(ids, r.ID)
		if !IsReleaseRule(r.ID) {
			t.Errorf("IsReleaseRule(%q) = false", r.ID)
		}
	}
	if len(ids) != 2 || IsReleaseRule("node-removed") {
		t.Fatalf("ReleaseRules() = %v, want %s and %s", ids, RuleBumpInsufficient, RuleVersionMutated)
	}
}
