// Package diag is the one model of a lint finding that every rule produces
// and every printer consumes. It does no I/O.
package diag

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Severity orders findings: Info < Warning < Error.
type Severity int

// Severities, lowest first. Off is only used by configuration to silence a
// rule; no Diagnostic carries it.
const (
	Off Severity = iota
	Info
	Warning
	Error
)

var severityNames = [...]string{"off", "info", "warning", "error"}

// SeverityNames returns the severities' names, lowest first, as a
// configuration writes them (a fresh slice: the caller may keep it).
func SeverityNames() []string { return slices.Clone(severityNames[:]) }

func (s Severity) String() string {
	if s < Off || s > Error {
		return fmt.Sprintf("severity(%d)", int(s))
	}
	return severityNames[s]
}

// Raise returns the next severity up (Error stays Error).
func (s Severity) Raise() Severity { return min(s+1, Error) }

// ParseSeverity accepts "off", "info", "warning" (or "warn") and "error".
func ParseSeverity(s string) (Severity, error) {
	switch strings.ToLower(s) {
	case "off":
		return Off, nil
	case "info":
		return Info, nil
	case "warning", "warn":
		return Warning, nil
	case "error":
		return Error, nil
	}
	return Off, fmt.Errorf("unknown severity %q (want off, info, warning or error)", s)
}

// MarshalText writes the severity's name, so JSON output says "error".
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a severity's name.
func (s *Severity) UnmarshalText(b []byte) error {
	v, err := ParseSeverity(string(b))
	*s = v
	return err
}

// Position is a 1-based line and column (column in code points); 0 means
// unknown.
type Position struct {
	Line   int `json:"line"`
	Column int `json:"column"`
}

// Diagnostic is one finding.
type Diagnostic struct {
	Rule     string   // rule id, e.g. "json-duplicate-key"
	Severity Severity // after configuration
	File     string   // slash path as the user named it: "packs/a/pack.json"
	Pointer  string   // RFC 6901 pointer into a JSON file; "" for the whole file
	Start    Position // zero when the finding is about the whole file
	Message  string   // what is wrong and what to write instead; no file name, no final period
	// Fix is the one edit that fixes the finding (a rule's mechanical fix,
	// or the replacement a "did you mean" proposes); zero when it has none.
	// The editor offers it as a quick fix; --fix applies it when Fixable.
	Fix Fix `json:",omitzero"`
	// Fixable is set when `wop pack lint --fix` applies Fix: a rule's
	// mechanical fix, or a suggestion safe to take without a person (see
	// the rule's documentation).
	Fixable bool `json:",omitempty"`
}

// Fix is one replacement in the finding's file: the text Old becomes New.
// In a JSON file it applies at Pointer through jsonedit (formatting kept):
// the member's name there when Key, else its string value. In any other
// file (YAML) it applies at bytes [Start, End), which must still hold Was
// (Old as written, quotes included) and become Text (New in Old's quoting).
// Old and New name the change to a person: `Replace "Old" with "New"`.
type Fix struct {
	Old, New   string
	Pointer    string `json:",omitempty"`
	Key        bool   `json:",omitempty"`
	Start, End int    `json:",omitempty"`
	Was, Text  string `json:",omitempty"`
}

// IsZero reports whether f is no fix at all.
func (f Fix) IsZero() bool { return f == Fix{} }

// Span reports whether f applies at a byte range rather than a JSON pointer.
func (f Fix) Span() bool { return f.Was != "" }

// RuleInfo is what printers need to know about a rule (SARIF's rule table).
type RuleInfo struct {
	ID         string
	Severity   Severity
	Summary    string
	Since      string // the first wop version with the rule
	Deprecated string // why the rule is retired; "" while it is current
	ReplacedBy string // the rule that took over a deprecated one
	// Doc is the rule's catalogue prose in markdown (why it exists, how to
	// fix it), or "" when not loaded: only SARIF output needs it.
	Doc string `json:",omitempty"`
}

// Sort orders findings by file, line, column, rule and message, and drops
// exact duplicates.
func Sort(ds []Diagnostic) []Diagnostic {
	slices.SortFunc(ds, Compare)
	return slices.Compact(ds)
}

// Compare orders two findings as Sort does: by file, line, column, rule
// and message.
func Compare(a, b Diagnostic) int {
	return cmp.Or(
		cmp.Compare(a.File, b.File),
		cmp.Compare(a.Start.Line, b.Start.Line),
		cmp.Compare(a.Start.Column, b.Start.Column),
		cmp.Compare(a.Rule, b.Rule),
		cmp.Compare(a.Message, b.Message),
	)
}

// WithoutInfo drops the info findings from ds (in place), for output that
// shows them only when asked, and says how many it dropped.
func WithoutInfo(ds []Diagnostic) ([]Diagnostic, int) {
	n := len(ds)
	ds = slices.DeleteFunc(ds, func(d Diagnostic) bool { return d.Severity == Info })
	return ds, n - len(ds)
}

// Counts tallies findings by severity.
type Counts struct {
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
	Infos    int `json:"infos"`
}

// Count tallies ds.
func Count(ds []Diagnostic) Counts {
	var c Counts
	for _, d := range ds {
		switch d.Severity {
		case Error:
			c.Errors++
		case Warning:
			c.Warnings++
		case Info:
			c.Infos++
		}
	}
	return c
}
