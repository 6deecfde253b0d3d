package lintrun

import (
	"fmt"
	"slices"
	"strings"

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
	// registry with the enforced rules only (lint.Rule.Enforced), which no flag switches off.
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

// Options returns opt for the gate: the enforced rules as a registry
// judges them, whatever the configuration says (enforcedOptions); at
// publish, publishOnlyErrors are errors; GateGuard keeps the enforced
// rules alone.
func (g Gate) Options(opt lint.Options) lint.Options {
	if g == GateOff {
		return opt
	}
	return g.enforcedOptions(opt)
}

// GateError is a gate's refusal, after the findings were printed; Hint is
// the next step the CLI prints.
type GateError struct{ msg, hint string }

func (e *GateError) Error() string { return e.msg }
func (e *GateError) Hint() string  { return e.hint }

// Show is how a gate prints what it found: in colour or not, and Quiet
// for errors alone (they are why it refuses, so they are always printed).
type Show struct{ Color, Quiet bool }

// Check refuses to build (or, publishing, to publish) a pack with lint
// errors under the gate's options of s, printing to env.ErrOut, in lint's
// format, the findings and the summary (warnings too unless Quiet: the
// last moment to see them before an immutable version). A finding of an
// enforced rule that s's configuration ignores or lowers stops it with the
// entry named. Publish never suggests --no-lint: what it would skip is at
// most style, and following such a hint on a fresh pack would publish its
// placeholders under an immutable version. GateOff checks nothing.
func (g Gate) Check(env *Env, pk *pack.Pack, s *Settings, show Show) error {
	if g == GateOff {
		return nil
	}
	ds, ignored, err := lint.RunCounted(pk, g.Options(s.Opt)) // counted, as lint does
	if err != nil {
		return err
	}
	shown, hiddenInfo := diag.WithoutInfo(ds)
	var errs []diag.Diagnostic
	for _, d := range shown {
		if d.Severity == diag.Error {
			errs = append(errs, d)
		}
	}
	if show.Quiet {
		shown = errs
	}
	if len(shown) > 0 {
		if err := report.Print(env.ErrOut, "text", report.Input{Diags: shown, Color: show.Color, Invoked: env.Invoked}); err != nil {
			return err
		}
	}
	if !show.Quiet && len(ds) > 0 {
		fmt.Fprintln(env.ErrOut, report.Summary(shown, report.Tally{HiddenInfo: hiddenInfo, Ignored: ignored,
			InfoHint: env.Invoked.Cmd("pack lint --info") + " shows", FixCmd: env.Invoked.Cmd("pack lint --fix")}, 1, "pack"))
	}
	if len(errs) == 0 {
		return nil
	}
	return g.refusal(env, pk, s, errs)
}

// refusal is the gate's error for errs: the configuration entries that
// tried to hide an enforced finding first, each with the first finding it
// would have hidden, then the count.
func (g Gate) refusal(env *Env, pk *pack.Pack, s *Settings, errs []diag.Diagnostic) error {
	noun, verb := "errors", "building"
	if len(errs) == 1 {
		noun = "error"
	}
	stage := "build"
	if g.publishing() {
		verb, stage = "publishing", "publish"
	}
	var lines []string
	for _, o := range s.Overrides {
		var hit []diag.Diagnostic
		for _, d := range errs {
			if o.hides(pk, d) {
				hit = append(hit, d)
			}
		}
		if len(hit) == 0 {
			continue
		}
		how := "hide"
		if o.Ignore == nil {
			how = "lower"
		}
		line := fmt.Sprintf("%s:%d:%d: %s cannot %s %s at %s: %s: %s", env.Rel(s.ConfigPath), o.At.Line, o.At.Column, o.Entry(), how, o.Rule, stage, report.Location(hit[0]), hit[0].Message)
		if len(hit) > 1 {
			line += fmt.Sprintf(" (and %d more)", len(hit)-1)
		}
		lines = append(lines, line)
	}
	msg := fmt.Sprintf("lint found %d %s; not %s", len(errs), noun, verb)
	hint := "fix them, or pass --no-lint to build anyway"
	switch {
	case len(lines) > 0:
		return &GateError{msg: strings.Join(append(lines, msg), "\n"),
			hint: "fix the finding, then remove the entry from .wop.yaml: the rule is enforced (what must never reach a registry), so .wop.yaml cannot ignore or lower it at build or publish; lint alone honours the entry"}
	case g.publishing():
		hint = "fix them: a published version is immutable (what a registry refuses, an invalid manifest, placeholders, secrets, links and unsafe paths, stops a publish even with --no-lint)"
	case slices.ContainsFunc(errs, func(d diag.Diagnostic) bool { return slices.Contains(buildRefuses, d.Rule) }):
		hint = "fix them: secrets, links and unsafe paths are refused by build and publish themselves, with or without --no-lint"
	}
	return &GateError{msg: msg, hint: hint}
}
