package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/diag"
)

func TestEscapeControl(t *testing.T) {
	tests := []struct{ in, want, wantKeep string }{
		{"plain é ✓", "plain é ✓", "plain é ✓"},
		{"a\x1b[31mred", `a\x1b[31mred`, `a\x1b[31mred`},
		{"osc\x1b]52;c;aGk=\x07", `osc\x1b]52;c;aGk=\x07`, `osc\x1b]52;c;aGk=\x07`},
		{"two\nlines\r", `two\x0alines\x0d`, "two\nlines\\x0d"},
		{"c1\u009b2J del\x7f", `c1\u009b2J del\x7f`, `c1\u009b2J del\x7f`},
		{"bidi \u202eevil", `bidi \u202eevil`, `bidi \u202eevil`},
		{"bad \xff utf8", `bad \xff utf8`, `bad \xff utf8`},
		{"tab\tok", "tab\tok", "tab\tok"},
	}
	for _, tt := range tests {
		if got := EscapeControl(tt.in, false); got != tt.want {
			t.Errorf("EscapeControl(%q, false) = %q, want %q", tt.in, got, tt.want)
		}
		if got := EscapeControl(tt.in, true); got != tt.wantKeep {
			t.Errorf("EscapeControl(%q, true) = %q, want %q", tt.in, got, tt.wantKeep)
		}
	}
}

// TestTextEscapesNamesAndMessages: an archive entry named with an escape
// sequence reaches the terminal as text.
func TestTextEscapesNamesAndMessages(t *testing.T) {
	var out bytes.Buffer
	in := Input{Diags: []diag.Diagnostic{{File: "x\x1b]52;c;aGk=\x07.md", Rule: "archive-link", Severity: diag.Error, Message: "link to \x1b[2J\nsecond line"}}}
	if err := Print(&out, "text", in); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	if strings.ContainsRune(got, 0x1b) || strings.ContainsRune(got, 0x07) {
		t.Errorf("raw control characters in %q", got)
	}
	if want := "x\\x1b]52;c;aGk=\\x07.md: error archive-link: link to \\x1b[2J\n    second line\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestGitHubEscapesNamesAndMessages: the github printer escapes control
// characters as text does, then applies the workflow-command escaping, so a
// file name cannot inject a second annotation or a terminal sequence.
func TestGitHubEscapesNamesAndMessages(t *testing.T) {
	var out bytes.Buffer
	in := Input{Diags: []diag.Diagnostic{{File: "x\x1b]52;c;aGk=\x07.md", Rule: "archive-link", Severity: diag.Error, Message: "link to \x1b[2J\r\nsecond, 100%\u202e"}}}
	if err := Print(&out, "github", in); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	if strings.ContainsRune(got, 0x1b) || strings.ContainsRune(got, 0x07) || strings.ContainsRune(got, 0x202e) {
		t.Errorf("raw control characters in %q", got)
	}
	if want := "::error file=x\\x1b]52;c;aGk=\\x07.md,title=archive-link::link to \\x1b[2J%0Asecond, 100%25\\u202e\n"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}
