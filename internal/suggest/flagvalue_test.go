package suggest

import "testing"

func TestFlagValue(t *testing.T) {
	tests := []struct {
		value string
		want  string // "" for no error
	}{
		{"json", ""},
		{"sarf", `--format "sarf": want one of text, json, sarif, github; did you mean "sarif"?`},
		{"JSON", `--format "JSON": want one of text, json, sarif, github; did you mean "json"?`},
		{"yaml", `--format "yaml": want one of text, json, sarif, github`},
		{"", `--format "": want one of text, json, sarif, github`},
	}
	for _, tt := range tests {
		err := FlagValue("--format", tt.value, "text", "json", "sarif", "github")
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("FlagValue(%q) = %q, want %q", tt.value, got, tt.want)
		}
	}
	if err := FlagValue("--format", "jsn", "text", "json"); err == nil || err.Error() != `--format "jsn": want text or json; did you mean "json"?` {
		t.Errorf("two values: %v", err)
	}
}

// TestUnknownRule: a near miss names the rule meant; the rest point at the
// list.
func TestUnknownRule(t *testing.T) {
	ids := []string{"ref-missing", "placeholder-left"}
	if err := UnknownRule("ref-mising", ids, "wop pack rules"); err == nil || err.Error() != `no rule "ref-mising"; did you mean "ref-missing"? ('wop pack rules' lists them)` {
		t.Errorf("near: %v", err)
	}
	if err := UnknownRule("zzz", ids, "wop pack rules"); err == nil || err.Error() != `no rule "zzz"; 'wop pack rules' lists them` {
		t.Errorf("far: %v", err)
	}
	// The command that lists the rules is the caller's (npx runs wop too).
	if err := UnknownRule("ref-mising", ids, "npx wop pack rules"); err == nil || err.Error() != `no rule "ref-mising"; did you mean "ref-missing"? ('npx wop pack rules' lists them)` {
		t.Errorf("near, named command: %v", err)
	}
	if err := UnknownRule("zzz", ids, "npx wop pack rules"); err == nil || err.Error() != `no rule "zzz"; 'npx wop pack rules' lists them` {
		t.Errorf("far, named command: %v", err)
	}
}
