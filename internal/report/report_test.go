package report

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/testutil/golden"
)

// One input with the hard cases (no position, multi-line message, % , : in
// paths and messages, non-ASCII before the column) drives every printer.
func loadInput(t *testing.T) Input {
	raw, err := os.ReadFile("testdata/in.json")
	if err != nil {
		t.Fatal(err)
	}
	var in struct {
		Rules []diag.RuleInfo
		Diags []diag.Diagnostic
	}
	if err := json.Unmarshal(raw, &in); err != nil {
		t.Fatal(err)
	}
	return Input{Tool: "wop", Version: "1.2.3", Rules: in.Rules, Diags: in.Diags, BaseDir: "/src/repo",
		Spec: map[string]string{"v2": "2.0"}, Packs: []PackSpec{{Path: "packs/a", Spec: "v1"}, {Path: "packs/b", Spec: "v2"}}, Ignored: 2}
}

func TestPrintersGolden(t *testing.T) {
	for _, format := range Formats {
		t.Run(format, func(t *testing.T) {
			var out bytes.Buffer
			if err := Print(&out, format, loadInput(t)); err != nil {
				t.Fatal(err)
			}
			golden.Assert(t, "golden/out."+format, out.Bytes())
		})
	}
}

func TestGitHubOneLinePerDiagnostic(t *testing.T) {
	in := loadInput(t)
	var out bytes.Buffer
	if err := Print(&out, "github", in); err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(out.String(), "\n"); got != len(in.Diags) {
		t.Errorf("%d lines for %d diagnostics", got, len(in.Diags))
	}
}

func TestColorOnlyWhenAsked(t *testing.T) {
	in := loadInput(t)
	var plain bytes.Buffer
	if err := Print(&plain, "text", in); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(plain.String(), "\x1b[") {
		t.Error("escape codes without Color")
	}
	in.Color = true
	var colored bytes.Buffer
	if err := Print(&colored, "text", in); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(colored.String(), "\x1b[") || !strings.Contains(colored.String(), "ref-missing") {
		t.Errorf("no colour with Color:\n%q", colored.String())
	}
}

func TestUnknownFormat(t *testing.T) {
	if err := Print(&bytes.Buffer{}, "xml", Input{}); err == nil {
		t.Error("xml accepted")
	}
}

func TestSummary(t *testing.T) {
	warn := diag.Diagnostic{Rule: "r", Severity: diag.Warning, File: "p/pack.json"}
	fixable := diag.Diagnostic{Rule: "f", Severity: diag.Error, File: "p/pack.json", Fixable: true}
	info := diag.Diagnostic{Rule: "i", Severity: diag.Info, File: "p/pack.json"}
	for _, c := range []struct {
		diags []diag.Diagnostic
		tally Tally
		n     int
		want  string
	}{
		{nil, Tally{}, 1, "0 errors, 0 warnings, 0 info in 1 pack"},
		{[]diag.Diagnostic{warn, info}, Tally{}, 2, "0 errors, 1 warning, 1 info in 2 packs"},
		// A core.acme.demo pack: its one finding is an info one, hidden.
		{nil, Tally{HiddenInfo: 1}, 1, "0 errors, 0 warnings, 1 info (hidden: add --info to see it) in 1 pack"},
		{[]diag.Diagnostic{warn}, Tally{HiddenInfo: 3}, 1, "0 errors, 1 warning, 3 info (hidden: add --info to see them) in 1 pack"},
		{[]diag.Diagnostic{fixable, warn, fixable}, Tally{}, 1, "2 errors, 1 warning, 0 info in 1 pack; 2 fixable: run wop pack lint --fix"},
		// What .wop.yaml ignored is counted, not hidden from the total.
		{[]diag.Diagnostic{warn}, Tally{Ignored: 2}, 1, "0 errors, 1 warning, 0 info in 1 pack (2 ignored by .wop.yaml)"},
		// The entries warned of as holding for lint only are counted too.
		{nil, Tally{Ignored: 1, LintOnly: 1}, 1, "0 errors, 0 warnings, 0 info in 1 pack (1 ignored by .wop.yaml); 1 .wop.yaml entry holds for lint only (warned above)"},
		{[]diag.Diagnostic{fixable}, Tally{LintOnly: 2}, 1, "1 error, 0 warnings, 0 info in 1 pack; 2 .wop.yaml entries hold for lint only (warned above); 1 fixable: run wop pack lint --fix"},
		// build and publish have no --info: they say where to see them.
		{[]diag.Diagnostic{fixable}, Tally{HiddenInfo: 1, Ignored: 1, InfoHint: "wop pack lint --info shows"}, 1,
			"1 error, 0 warnings, 1 info (hidden: wop pack lint --info shows it) in 1 pack (1 ignored by .wop.yaml); 1 fixable: run wop pack lint --fix"},
	} {
		if got := Summary(c.diags, c.tally, c.n, "pack"); got != c.want {
			t.Errorf("Summary = %q, want %q", got, c.want)
		}
	}
}

// TestTextMarksFixable: a finding --fix would fix says so at its end, also
// after a multi-line message; others do not.
func TestTextMarksFixable(t *testing.T) {
	in := Input{Diags: []diag.Diagnostic{
		{Rule: "schema-id-mismatch", Severity: diag.Error, File: "s.json", Start: diag.Position{Line: 3, Column: 10}, Message: "$id is wrong", Fixable: true},
		{Rule: "multi", Severity: diag.Warning, File: "s.json", Start: diag.Position{Line: 4, Column: 1}, Message: "one\ntwo", Fixable: true},
		{Rule: "ref-missing", Severity: diag.Error, File: "t.json", Start: diag.Position{Line: 1, Column: 1}, Message: "no file"},
	}}
	var out bytes.Buffer
	if err := Print(&out, "text", in); err != nil {
		t.Fatal(err)
	}
	want := "s.json:3:10: error schema-id-mismatch: $id is wrong (fixable)\ns.json:4:1: warning multi: one\n    two (fixable)\n\nt.json:1:1: error ref-missing: no file\n"
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
}
