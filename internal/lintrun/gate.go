package lintrun

import (
	"fmt"
	"io"
	"maps"
	"slices"

	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/lint"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/report"
)

// Gate is how strictly lint stands between a source and an archive: the
// one gate of build, sign and publish.
type Gate int

const (
	GateOff     Gate = iota // build --no-lint
	GateBuild               // build: lint errors stop it
	GatePublish             // publish: also what must not reach a registry
	// GateGuard is publish --no-lint: lint stands between the pack and the
	// registry with GuardRules only, which no flag switches off.
	GateGuard
)

// GateFor is the gate of build (publishing false) or publish.
func GateFor(noLint, publishing bool) Gate {
	switch {
	case noLint && publishing:
		return GateGuard
	case noLint:
		return GateOff
	case publishing:
		return GatePublish
	}
	return GateBuild
}

// publishing says the gate stands before a registry.
func (g Gate) publishing() bool { return g >= GatePublish }

// publishOnlyErrors are warnings while a pack is written and errors when it
// is published: init's placeholders would go out as the pack's public text.
var publishOnlyErrors = []string{"placeholder-left"}

// Options returns opt for the gate: at publish, publishOnlyErrors become
// errors unless the configuration chose their severity (off included);
// GateGuard keeps GuardRules alone.
func (g Gate) Options(opt lint.Options) lint.Options {
	switch g {
	case GateGuard:
		return guardOptions(opt)
	case GatePublish:
	default:
		return opt
	}
	sev := maps.Clone(opt.Severities)
	if sev == nil {
		sev = map[string]diag.Severity{}
	}
	for _, id := range publishOnlyErrors {
		if _, set := sev[id]; !set {
			sev[id] = diag.Error
		}
	}
	opt.Severities = sev
	return opt
}

// GateError is a gate's refusal, after the findings were printed; Hint is
// the next step the CLI prints.
type GateError struct{ msg, hint string }

func (e *GateError) Error() string { return e.msg }
func (e *GateError) Hint() string  { return e.hint }

// Check refuses to build (or, publishing, to publish) a pack with lint
// errors under the gate's options of opt, printing them to w. Publish never
// suggests --no-lint: what it would skip is at most style, and following
// such a hint on a fresh pack would publish its placeholders under an
// immutable version. GateOff checks nothing.
func (g Gate) Check(w io.Writer, color bool, pk *pack.Pack, opt lint.Options) error {
	if g == GateOff {
		return nil
	}
	ds, err := lint.RunCached(pk, g.Options(opt))
	if err != nil {
		return err
	}
	var errs []diag.Diagnostic
	for _, d := range ds {
		if d.Severity == diag.Error {
			errs = append(errs, d)
		}
	}
	if len(errs) == 0 {
		return nil
	}
	if err := report.Print(w, "text", report.Input{Diags: errs, Color: color}); err != nil {
		return err
	}
	noun, verb := "errors", "building"
	if len(errs) == 1 {
		noun = "error"
	}
	hint := "fix them, or pass --no-lint to build anyway"
	switch {
	case g.publishing():
		verb = "publishing"
		hint = "fix them: a published version is immutable (placeholders, secrets, links and unsafe paths stop a publish even with --no-lint)"
	case slices.ContainsFunc(errs, func(d diag.Diagnostic) bool { return IsGuardRule(d.Rule) && d.Rule != "placeholder-left" }):
		hint = "fix them: secrets, links and unsafe paths are refused by build and publish themselves, with or without --no-lint"
	}
	return &GateError{msg: fmt.Sprintf("lint found %d %s; not %s", len(errs), noun, verb), hint: hint}
}
