// Package report prints findings in the formats CI systems and people read:
// text, json, sarif and github. It knows diagnostics and rule metadata, not
// how they were found.
package report

import (
	"cmp"
	"fmt"
	"io"

	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/invocation"
)

// Formats lists the accepted --format values.
var Formats = []string{"text", "json", "sarif", "github"}

// Input is everything a printer may need.
type Input struct {
	Tool    string // "wop"
	Version string
	Rules   []diag.RuleInfo
	Diags   []diag.Diagnostic // sorted
	Color   bool              // text only: colour severities
	// BaseDir is the absolute directory relative Diags files are relative
	// to (the working directory); SARIF records it as %SRCROOT%. "" omits it.
	BaseDir string
	// Spec is the OpenWOP spec versions wop's embedded files are pinned to,
	// by generation ({"v2": "2.0"}); json and sarif print it. nil omits it.
	Spec map[string]string
	// Packs is each pack that was judged, with the spec generation it was
	// judged by; json and sarif print it.
	Packs []PackSpec
	// Incomplete, when set, says the findings were judged against a
	// catalog that left broken packs out; json and sarif print it.
	Incomplete *Incomplete
	// Ignored is how many findings the configuration's ignore lists
	// dropped; json prints it in its summary.
	Ignored int
	// Invoked is the command that started wop. The formats a person reads
	// (text, github's annotations) print the command lines in findings'
	// messages as it runs them (invocation.Name.Mentions): "rebuild with
	// npx wop pack build --key". Findings themselves stay as plain wop
	// says them, and so do json and sarif: lint's cache, a baseline and a
	// code-scanning alert's identity are the same whoever started wop.
	Invoked invocation.Name
}

// Incomplete says a catalog skipped broken pack.json files: what those
// packs define may be reported as unresolved until they are fixed.
type Incomplete struct {
	Skipped int    `json:"skipped"` // broken pack.json files left out
	Message string `json:"message"`
}

// PackSpec names one pack and the spec generation ("v1" or "v2") it was
// judged by.
type PackSpec struct {
	Path string `json:"path"` // as the pack was named on the command line
	Spec string `json:"spec"`
}

// Print writes in.Diags to w in format.
func Print(w io.Writer, format string, in Input) error {
	switch format {
	case "text", "":
		return printText(w, in)
	case "json":
		return printJSON(w, in)
	case "sarif":
		return printSARIF(w, in)
	case "github":
		return printGitHub(w, in)
	}
	return fmt.Errorf("unknown format %q (want text, json, sarif or github)", format)
}

// Tally is what the summary line after text output counts beyond the
// findings printed.
type Tally struct {
	// HiddenInfo is how many info findings were left out because --info
	// was not given.
	HiddenInfo int
	// InfoHint says how to see them; "" is lint's "add --info to see".
	InfoHint string
	// FixCmd is the command that applies the fixes, as the user would
	// type it; "" is "wop pack lint --fix".
	FixCmd string
	// Ignored is how many findings the configuration's ignore lists
	// dropped: "(2 ignored by .wop.yaml)".
	Ignored int
	// LintOnly is how many configuration entries lower or ignore an
	// enforced rule, each warned of above the findings: they hold for
	// lint only.
	LintOnly int
}

// Summary is the one-line tally printed after text output: "1 error, 2
// warnings, 0 info in 3 packs". noun names what was linted ("pack", "file").
// diags are the findings printed; info findings left out are counted as
// such with how to see them, and the findings --fix would fix with how to
// fix them, and those the configuration ignored: "0 errors, 1 warning, 2
// info (hidden: add --info to see them) in 1 pack (1 ignored by .wop.yaml);
// 1 fixable: run wop pack lint --fix".
func Summary(diags []diag.Diagnostic, t Tally, n int, noun string) string {
	c := diag.Count(diags)
	info := fmt.Sprintf("%d info", c.Infos)
	if t.HiddenInfo > 0 {
		info = fmt.Sprintf("%d info (hidden: %s %s)", t.HiddenInfo, cmp.Or(t.InfoHint, "add --info to see"), plural(t.HiddenInfo, "it", "them"))
	}
	line := fmt.Sprintf("%d %s, %d %s, %s in %d %s",
		c.Errors, plural(c.Errors, "error", "errors"), c.Warnings, plural(c.Warnings, "warning", "warnings"),
		info, n, plural(n, noun, noun+"s"))
	if t.Ignored > 0 {
		line += fmt.Sprintf(" (%d ignored by .wop.yaml)", t.Ignored)
	}
	if t.LintOnly > 0 {
		line += fmt.Sprintf("; %d .wop.yaml %s for lint only (warned above)", t.LintOnly, plural(t.LintOnly, "entry holds", "entries hold"))
	}
	fixable := 0
	for _, d := range diags {
		if d.Fixable {
			fixable++
		}
	}
	if fixable > 0 {
		line += fmt.Sprintf("; %d fixable: run %s", fixable, cmp.Or(t.FixCmd, "wop pack lint --fix"))
	}
	return line
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
