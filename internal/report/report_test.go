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
		Spec: map[string]string{"v2": "2.0"}, Packs: []PackSpec{{Path: "packs/a", Spec: "v1"}, {Path: "packs/b", Spec: "v2"}}}
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
