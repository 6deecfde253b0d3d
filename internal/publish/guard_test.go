package publish

import (
	"testing"

	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/lint"
)

func TestGuardOptionsKeepsOnlyTheGuardRules(t *testing.T) {
	opt := lint.Options{Severities: map[string]diag.Severity{
		"ref-missing":      diag.Error, // configured, but not a guard rule: off
		"placeholder-left": diag.Off,   // the configuration's choice stands
	}}
	sev := GuardOptions(opt).Severities
	for _, r := range lint.All() {
		want := diag.Off
		if IsGuardRule(r.ID) {
			want = diag.Error
		}
		if r.ID == "placeholder-left" {
			want = diag.Off
		}
		if got, ok := sev[r.ID]; !ok || got != want {
			t.Errorf("%s: severity %v (set %v), want %v", r.ID, got, ok, want)
		}
	}
	if opt.Severities["ref-missing"] != diag.Error {
		t.Error("GuardOptions changed the caller's map")
	}
	ids := map[string]bool{}
	for _, r := range lint.All() {
		ids[r.ID] = true
	}
	for _, id := range GuardRules {
		if !ids[id] {
			t.Errorf("guard rule %s is no lint rule", id)
		}
	}
}
