// Package lint checks a loaded pack against the rules of LINT-RULES.md and
// returns findings as diag.Diagnostics. Rules are data in one registry
// (registry.go), the AgentFormat rules included; `.wop.yaml`, baselines,
// `wop pack rules`, --explain, SARIF and docs/rules.md all read it.
package lint

import (
	"fmt"
	"strings"

	"github.com/wop-cli/wop/internal/agf"
	"github.com/wop-cli/wop/internal/diag"
)

// Rule is one lint rule. New fields must be optional (zero means "none") so
// that rules written without them keep compiling.
type Rule struct {
	ID       string        // kebab-case, stable forever: deprecate, never reuse
	Severity diag.Severity // default severity
	Summary  string        // one line, for `wop pack rules` and SARIF
	Since    string        // the first wop version with the rule
	// Deprecated says why the rule is retired; ReplacedBy names the rule
	// that took over its findings. A deprecated rule has no check: an id of
	// it in .wop.yaml or a baseline is read as ReplacedBy, with a warning.
	Deprecated string
	ReplacedBy string
	// Check reports findings for the pack in the pass. Rules that need a
	// parsed manifest are only run when pack.json parsed.
	Check func(*Pass)
	// AgentFormat reports findings for one *.agf.yaml file: rules of
	// `wop agf lint`, also applied to such files inside a pack.
	AgentFormat func(*agf.Pass)
	// OptIn marks policy rules that are off unless configuration gives
	// them a severity (a registry switches them on in .wop.yaml).
	OptIn bool
	// Raw marks rules that run even when their file did not parse (file
	// and encoding rules, agf-yaml-invalid).
	Raw bool
	// Fix, when set, mechanically and safely fixes one finding of the rule
	// (`wop pack lint --fix`); nil for rules that need a person.
	Fix Fix
	// Enforced marks a finding a registry refuses (the manifest against the
	// spec schema, JSON that does not parse, what must never be published):
	// build and publish check it whatever .wop.yaml says, so configuration
	// cannot ignore or lower it there (lintrun's gate), and publish checks
	// it even with --no-lint. Lint itself keeps the configuration's view.
	Enforced bool
}

// Rules is a rule list with lookups by id.
type Rules []*Rule

// Info returns the rule's metadata for printers.
func (r *Rule) Info() diag.RuleInfo {
	return diag.RuleInfo{ID: r.ID, Severity: r.Severity, Summary: r.Summary, Since: r.Since,
		Deprecated: r.Deprecated, ReplacedBy: r.ReplacedBy}
}

// Lookup returns the rule with id, deprecated ones included, or nil.
func (rs Rules) Lookup(id string) *Rule {
	for _, r := range rs {
		if r.ID == id {
			return r
		}
	}
	return nil
}

// Resolve returns the rule an id in configuration or a baseline stands
// for: the rule itself, or for a deprecated id the rule that replaced it,
// with a warning to show the user. It returns nil for an unknown id.
func (rs Rules) Resolve(id string) (r *Rule, warning string) {
	r = rs.Lookup(id)
	if r == nil || r.Deprecated == "" {
		return r, ""
	}
	if next := rs.Lookup(r.ReplacedBy); next != nil && r.ReplacedBy != id {
		return next, "rule " + id + " is deprecated (" + r.Deprecated + "); read as " + next.ID + ": write " + next.ID + " instead"
	}
	return r, "rule " + id + " is deprecated (" + r.Deprecated + ") and no longer reports anything"
}

// ConfigNote is what every rule's explanation ends with (--explain, a
// hover, docs/rules.md): how configuration switches it off or ignores a
// finding, or, for an enforced rule, that it does so for lint alone.
func (r *Rule) ConfigNote() string {
	if !r.Enforced {
		return SwitchOff(r.ID)
	}
	return fmt.Sprintf("Enforced: it must never reach a registry. `rules: {%s: off}`, a lower\n"+
		"severity or an ignore in .wop.yaml hold for `wop pack lint` only, with a\n"+
		"warning at the entry; `wop pack build` and `wop pack publish` (publish even\n"+
		"with --no-lint) stop on its findings whatever .wop.yaml says, naming the\n"+
		"entry. Fix the finding instead (docs/gate.md).", r.ID)
}

// EnforcedIDs are the ids of the enforced rules, in registry order.
func (rs Rules) EnforcedIDs() []string {
	var ids []string
	for _, r := range rs {
		if r.Enforced {
			ids = append(ids, r.ID)
		}
	}
	return ids
}

// IDs returns every rule id, for suggestions.
func (rs Rules) IDs() []string {
	ids := make([]string, 0, len(rs))
	for _, r := range rs {
		ids = append(ids, r.ID)
	}
	return ids
}

// Lookup returns the registry's rule with id, or nil.
func Lookup(id string) *Rule { return All().Lookup(id) }

// Infos returns every rule's metadata, in registry order.
func Infos() []diag.RuleInfo {
	return infos(false)
}

// SwitchOff is the sentence every rule's explanation ends with (--explain,
// docs/rules.md): how to switch the rule off or ignore one of its findings,
// and that configuration does not reach what a registry refuses.
func SwitchOff(id string) string {
	return fmt.Sprintf("Switch it off with `rules: {%s: off}` in .wop.yaml, or ignore it in some files with `rules: {%s: {ignore: [\"GLOB\"]}}` (a baseline, --write-baseline, accepts today's findings); findings a registry refuses still stop build and publish (docs/config.md).", id, id)
}

// InfosWithDocs is Infos with each rule's catalogue prose in Doc, for
// printers that carry full rule help (SARIF). It parses the catalogue, which
// the lint path otherwise never does.
func InfosWithDocs() []diag.RuleInfo {
	return infos(true)
}

func infos(docs bool) []diag.RuleInfo {
	var out []diag.RuleInfo
	for _, r := range All() {
		info := r.Info()
		if docs {
			if doc, err := Explain(r.ID); err == nil {
				info.Doc = strings.TrimSpace(doc.Prose)
			}
		}
		out = append(out, info)
	}
	return out
}
