package lintrun

import (
	"fmt"
	"maps"
	"slices"

	"github.com/wop-cli/wop/internal/config"
	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/lint"
	"github.com/wop-cli/wop/internal/pack"
)

// buildRefuses are the guard rules build itself refuses, lint or no lint
// (secrets, links, unsafe paths): its hint never offers --no-lint for them.
var buildRefuses = []string{
	"private-key-in-pack", "symlink-in-pack", "path-unsafe", "archive-unsafe-path", "archive-link",
	"archive-special-file", "archive-duplicate-entry", "archive-entry-too-large",
}

// enforcedOptions returns opt as a gate lints with it: an enforced rule
// keeps no ignore and no severity below its own (publish raises
// publishOnlyErrors to error), whatever the configuration said; the
// configuration may still raise one. Under GateGuard every other rule is
// off. The caller's maps are not changed, and a configuration that lowers
// no enforced rule gives build the options lint had: one cache entry.
func (g Gate) enforcedOptions(opt lint.Options) lint.Options {
	rules := lint.All()
	sev := maps.Clone(opt.Severities) // nil stays nil: the cache key lint had
	if g == GateGuard {
		sev = map[string]diag.Severity{}
		for _, r := range rules {
			if !r.Enforced {
				sev[r.ID] = diag.Off
			}
		}
	}
	set := func(id string, s diag.Severity) {
		if sev == nil {
			sev = map[string]diag.Severity{}
		}
		sev[id] = s
	}
	for _, r := range rules {
		if !r.Enforced {
			continue
		}
		floor := r.Severity
		if g.publishing() && slices.Contains(publishOnlyErrors, r.ID) {
			floor = diag.Error
		}
		switch c, ok := opt.Severities[r.ID]; {
		case ok && c >= floor:
			set(r.ID, c)
		case ok || floor != r.Severity || g == GateGuard:
			set(r.ID, floor)
		}
	}
	var ignores map[string][]config.Glob
	for id, globs := range opt.Ignores {
		if r := rules.Lookup(id); g != GateGuard && (r == nil || !r.Enforced) {
			if ignores == nil {
				ignores = map[string][]config.Glob{}
			}
			ignores[id] = globs
		}
	}
	opt.Severities, opt.Ignores = sev, ignores // part of the lint cache's key: no stale verdict
	return opt
}

// Override is a .wop.yaml entry that lowers (a severity) or ignores (an
// ignore list) an enforced rule. Lint honours it; build and publish do not,
// and a finding it would have hidden stops them, named with the entry.
type Override struct {
	Rule     string
	Written  string        // the id as the file writes it (a deprecated one reads as Rule)
	At       config.Pos    // where the severity or the ignore key is written
	Short    bool          // written `rule: off`, not `severity: off`
	Severity diag.Severity // what a severity entry sets
	Ignore   []config.Glob // what an ignore entry matches; nil for a severity entry
	Default  diag.Severity // the rule's own severity
}

// Entry names the entry as it is written: rules.X.ignore, rules.X: off,
// rules.X.severity: off.
func (o Override) Entry() string {
	switch {
	case o.Ignore != nil:
		return "rules." + o.Written + ".ignore"
	case o.Short:
		return fmt.Sprintf("rules.%s: %s", o.Written, o.Severity)
	}
	return fmt.Sprintf("rules.%s.severity: %s", o.Written, o.Severity)
}

// Lowers says whether the entry hides or lowers a finding at lint that a
// gate would report: an ignore, a severity below the rule's own, or below
// error for a rule publish raises to error.
func (o Override) Lowers() bool {
	return o.Ignore != nil || o.Severity < o.Default || slices.Contains(publishOnlyErrors, o.Rule) && o.Severity < diag.Error
}

// hides says whether the entry would hide d (an ignore matching its file)
// or lower it (a severity below the one the gate gives it).
func (o Override) hides(pk *pack.Pack, d diag.Diagnostic) bool {
	if d.Rule != o.Rule {
		return false
	}
	if o.Ignore != nil {
		_, n := lint.Ignore(pk, []diag.Diagnostic{d}, map[string][]config.Glob{o.Rule: o.Ignore})
		return n == 1
	}
	return o.Severity < d.Severity
}

// warnOverrides prints, once per configuration file (seen), its entries
// that hold for lint only (OverrideWarnings), as lint prints, and returns
// them for the editor to show at each entry.
func warnOverrides(env *Env, s *Settings, seen map[string]bool) []diag.Diagnostic {
	if s.ConfigPath == "" || seen[s.ConfigPath] {
		return nil
	}
	seen[s.ConfigPath] = true
	out := OverrideWarnings(env, s)
	for _, d := range out {
		fmt.Fprintf(env.ErrOut, "%s:%d:%d: warning: %s\n", d.File, d.Start.Line, d.Start.Column, d.Message)
	}
	return out
}

// OverrideWarnings are the entries of s's configuration that lower or
// ignore an enforced rule: they hold for lint only, as build and publish
// refuse what they hide. Each is a warning at its entry.
func OverrideWarnings(env *Env, s *Settings) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, o := range s.Overrides {
		if !o.Lowers() {
			continue
		}
		out = append(out, diag.Diagnostic{Severity: diag.Warning, File: env.Rel(s.ConfigPath), Start: diag.Position{Line: o.At.Line, Column: o.At.Column},
			Message: fmt.Sprintf("%s holds for lint only: %s is enforced (what must never reach a registry), so build and publish report its findings whatever .wop.yaml says; fix them instead", o.Entry(), o.Rule)})
	}
	return out
}
