package lintrun

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/exitcode"
	"github.com/wop-cli/wop/internal/lint"
	"github.com/wop-cli/wop/internal/report"
	"github.com/wop-cli/wop/internal/spec"
)

// ReportOptions say how `wop pack lint` reports a run's result.
type ReportOptions struct {
	Format string
	// Output is --output ("" for Out): written atomically, and only once
	// lint ran, so CI never uploads an empty or half-written report.
	Output string
	// WriteBaseline is --write-baseline: the findings go there instead of
	// a report.
	WriteBaseline string
	Rules         []diag.RuleInfo // the rules the report lists
	Color         bool
	Strict        bool // warnings fail the run too
}

// Report writes res as `wop pack lint` does: the baseline, or the report
// and (in text) the summary line on ErrOut. failed says the findings fail
// the run; a pack that could not be read is a usage error.
func Report(env *Env, res *Result, o ReportOptions) (failed bool, err error) {
	if o.WriteBaseline != "" {
		return false, writeBaseline(env, o.WriteBaseline, res.Diags)
	}
	if len(res.LoadErrs) > 0 && o.Output != "" {
		return false, &exitcode.UsageError{Err: errors.Join(res.LoadErrs...)} // no partial report file
	}
	in := report.Input{Tool: "wop", Version: env.Version, Rules: o.Rules, Diags: res.Diags, Color: o.Color && o.Output == "", BaseDir: env.WorkDir,
		Spec: spec.Versions(), Packs: res.Packs, Incomplete: res.Incomplete, Ignored: res.Ignored, Invoked: env.Invoked}
	if err := writeReport(env, o, in); err != nil {
		return false, err
	}
	if o.Format == "text" && (res.Linted > 0 || len(res.LoadErrs) == 0) { // no "in 0 packs" beside the error that stopped them
		fmt.Fprintln(env.ErrOut, report.Summary(res.Diags, report.Tally{HiddenInfo: res.HiddenInfo, Ignored: res.Ignored, LintOnly: len(res.ConfigWarnings),
			FixCmd: env.Invoked.Cmd("pack lint --fix")}, res.Linted, "pack"))
		if in.Incomplete != nil {
			fmt.Fprintln(env.ErrOut, in.Incomplete.Message)
		}
	}
	if len(res.LoadErrs) > 0 {
		return false, &exitcode.UsageError{Err: errors.Join(res.LoadErrs...)}
	}
	counts := diag.Count(res.Diags)
	return counts.Errors > 0 || o.Strict && counts.Warnings > 0, nil
}

// ReportAfterDiff reports, after --diff's patch, what the fixes leave:
// in text on ErrOut, since Out holds the patch alone (for git apply).
// failed says errors remain (warnings too with strict), as --fix would.
func ReportAfterDiff(env *Env, res *Result, rules []diag.RuleInfo, strict bool) (failed bool, err error) {
	toErr := *env
	toErr.Out = env.ErrOut
	if len(res.Diags) > 0 {
		fmt.Fprintln(env.ErrOut, "left after the fixes above, which no fix takes:")
	}
	return Report(&toErr, res, ReportOptions{Format: "text", Rules: rules, Strict: strict})
}

// writeReport writes the report to o.Output or Out.
func writeReport(env *Env, o ReportOptions, in report.Input) error {
	if o.Output == "" {
		return report.Print(env.Out, o.Format, in)
	}
	var buf bytes.Buffer
	if err := report.Print(&buf, o.Format, in); err != nil {
		return err
	}
	return WriteOutput(env.Abs(o.Output), "--output", buf.Bytes())
}

// writeBaseline writes the findings as a baseline file and says how to use it.
func writeBaseline(env *Env, name string, diags []diag.Diagnostic) error {
	out, err := lint.NewBaseline(diags).MarshalIndent()
	if err != nil {
		return err
	}
	if err := WriteOutput(env.Abs(name), "--write-baseline", out); err != nil {
		return err
	}
	fmt.Fprintf(env.ErrOut, "wrote %d findings to %s; lint with --baseline %s to report only new ones\n", len(diags), name, name)
	return nil
}
