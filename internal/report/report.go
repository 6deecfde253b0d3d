// Package report prints findings in the formats CI systems and people read:
// text, json, sarif and github. It knows diagnostics and rule metadata, not
// how they were found.
package report

import (
	"fmt"
	"io"

	"github.com/wop-cli/wop/internal/diag"
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

// Summary is the one-line tally printed after text output: "1 error, 2
// warnings, 0 info in 3 packs". noun names what was linted ("pack", "file").
func Summary(c diag.Counts, n int, noun string) string {
	return fmt.Sprintf("%d %s, %d %s, %d info in %d %s",
		c.Errors, plural(c.Errors, "error", "errors"), c.Warnings, plural(c.Warnings, "warning", "warnings"),
		c.Infos, n, plural(n, noun, noun+"s"))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
