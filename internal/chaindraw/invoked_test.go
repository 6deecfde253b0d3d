package chaindraw

import (
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/invocation"
)

// TestStepSummaryNamesInvoked: the step summary's findings and its hint
// for the rows left out start their command lines as wop was started.
func TestStepSummaryNamesInvoked(t *testing.T) {
	ds := make([]diag.Diagnostic, SummaryRows+1)
	for i := range ds {
		ds[i] = diag.Diagnostic{Severity: diag.Warning, Rule: "signing-in-source", File: "pack.json", Message: "delete it: wop pack build --key writes the right one"}
	}
	for _, invoked := range []invocation.Name{"", "npx wop"} {
		out := string(StepSummary(SummaryInput{Findings: ds, Invoked: invoked}))
		for _, want := range []string{
			"| delete it: " + invoked.Cmd("pack build --key") + " writes the right one |",
			"1 more findings not shown: the summary is bounded; `" + invoked.Cmd("pack lint") + "` lists them all.",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("%q: no %q in the summary", invoked, want)
			}
		}
	}
}

// TestSummaryWithinNamesInvoked: the hint for the chains left out too.
func TestSummaryWithinNamesInvoked(t *testing.T) {
	for _, invoked := range []invocation.Name{"", "npx wop"} {
		out := string(chartsSummary([]Chart{{Pack: "demo@1.1.0", DAG: sample(t)}}, 1, invoked))
		if want := "run `" + invoked.Cmd("pack graph") + "` to see them."; !strings.Contains(out, want) {
			t.Errorf("%q: %q, want %q in it", invoked, out, want)
		}
	}
}
