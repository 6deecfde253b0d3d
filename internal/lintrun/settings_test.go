package lintrun

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/config"
	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/lint"
)

func TestApplyRuleIDs(t *testing.T) {
	rules := append(lint.All(), &lint.Rule{ID: "ref-absent", Severity: diag.Error, Since: "0.1.0", Summary: "old name",
		Deprecated: "renamed in 0.2.0", ReplacedBy: "ref-missing"})
	tests := []struct {
		name    string
		rules   map[string]config.RuleConfig
		want    map[string]diag.Severity
		warning string
		err     string
	}{
		{"agentformat rule", map[string]config.RuleConfig{"agf-unknown-field": {Severity: "error", Line: 2}},
			map[string]diag.Severity{"agf-unknown-field": diag.Error}, "", ""},
		{"deprecated id", map[string]config.RuleConfig{"ref-absent": {Severity: "warning", Line: 3}},
			map[string]diag.Severity{"ref-missing": diag.Warning}, "line 3: rule ref-absent is deprecated (renamed in 0.2.0); read as ref-missing", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &Settings{}
			warnings, err := apply(&config.Config{Rules: tt.rules}, s, rules)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for id, sev := range tt.want {
				if s.Opt.Severities[id] != sev {
					t.Errorf("severity of %s = %v, want %v", id, s.Opt.Severities[id], sev)
				}
			}
			if got := strings.Join(warnings, "\n"); !strings.HasPrefix(got, tt.warning) || (tt.warning == "") != (got == "") {
				t.Errorf("warnings = %q, want %q", got, tt.warning)
			}
		})
	}
}

// TestConfigRefusesUnKnownRule: config.Load, given KnownRule, is the one
// place an unknown rule id is refused (apply never sees one).
func TestConfigRefusesUnKnownRule(t *testing.T) {
	p := filepath.Join(t.TempDir(), ".wop.yaml")
	if err := os.WriteFile(p, []byte("registry: private\n\n\nrules:\n  agf-unknown-feild: off\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := config.Load(p, config.Options{Rule: KnownRule})
	want := `no rule "agf-unknown-feild"; did you mean "agf-unknown-field"?`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("err = %v, want %q", err, want)
	}
}
