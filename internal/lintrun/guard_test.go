package lintrun

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
	sev := GateGuard.Options(opt).Severities
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
		t.Error("GateGuard.Options changed the caller's map")
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

// TestGateFor: publish --no-lint keeps the guard rules; build --no-lint
// lints nothing.
func TestGateFor(t *testing.T) {
	for _, tt := range []struct {
		noLint, publishing bool
		want               Gate
	}{{false, false, GateBuild}, {true, false, GateOff}, {false, true, GatePublish}, {true, true, GateGuard}} {
		if got := GateFor(tt.noLint, tt.publishing); got != tt.want {
			t.Errorf("GateFor(%v, %v) = %v, want %v", tt.noLint, tt.publishing, got, tt.want)
		}
	}
}
