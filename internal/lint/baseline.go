package lint

import (
	"encoding/json"
	"fmt"

	"github.com/wop-cli/wop/internal/jsonpos"

	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/safefile"
)

// Baseline is a set of accepted findings, so a repository can adopt lint
// without fixing everything first: only new findings fail. Entries carry no
// line numbers, so edits elsewhere in a file do not resurrect them.
type Baseline struct {
	Version  int             `json:"version"`
	Findings []BaselineEntry `json:"findings"`
}

// BaselineEntry identifies one accepted finding.
type BaselineEntry struct {
	Rule    string `json:"rule"`
	File    string `json:"file"`
	Pointer string `json:"pointer,omitempty"`
	Message string `json:"message"`
}

func entryOf(d diag.Diagnostic) BaselineEntry {
	return BaselineEntry{Rule: d.Rule, File: d.File, Pointer: d.Pointer, Message: d.Message}
}

// NewBaseline accepts every finding in ds.
func NewBaseline(ds []diag.Diagnostic) *Baseline {
	b := &Baseline{Version: 1, Findings: []BaselineEntry{}}
	for _, d := range ds {
		b.Findings = append(b.Findings, entryOf(d))
	}
	return b
}

// maxBaseline bounds a baseline file: a hundred thousand findings.
const maxBaseline = 32 << 20

// LoadBaseline reads a baseline file (a regular file: never a FIFO or
// device, whatever a link points to).
func LoadBaseline(path string) (*Baseline, error) {
	raw, err := safefile.Read(path, safefile.Options{Max: maxBaseline, FollowLinks: true})
	if err != nil {
		return nil, err
	}
	var b Baseline
	if err := json.Unmarshal(raw, &b); err != nil {
		return nil, fmt.Errorf("%s: not a wop baseline: %w", path, jsonpos.DecodeError(raw, err))
	}
	if b.Version != 1 {
		return nil, fmt.Errorf("%s: baseline version %d; this wop reads version 1", path, b.Version)
	}
	return &b, nil
}

// Upgrade rewrites entries of deprecated rules to the rules that replaced
// them, so a baseline written before a rename keeps accepting the same
// findings, and returns a warning per deprecated id.
func (b *Baseline) Upgrade(rules Rules) (warnings []string) {
	seen := map[string]bool{}
	for i, e := range b.Findings {
		r, warning := rules.Resolve(e.Rule)
		if warning == "" {
			continue
		}
		if !seen[e.Rule] {
			seen[e.Rule] = true
			warnings = append(warnings, warning)
		}
		b.Findings[i].Rule = r.ID
	}
	return warnings
}

// Filter drops findings the baseline accepts, each entry absorbing one
// finding, and returns the rest with the number dropped.
func (b *Baseline) Filter(ds []diag.Diagnostic) ([]diag.Diagnostic, int) {
	left := map[BaselineEntry]int{}
	for _, e := range b.Findings {
		left[e]++
	}
	var out []diag.Diagnostic
	for _, d := range ds {
		if e := entryOf(d); left[e] > 0 {
			left[e]--
			continue
		}
		out = append(out, d)
	}
	return out, len(ds) - len(out)
}

// MarshalIndent renders the baseline for writing.
func (b *Baseline) MarshalIndent() ([]byte, error) {
	out, err := json.MarshalIndent(b, "", "  ")
	return append(out, '\n'), err
}
