// Package lint checks a loaded pack against the rules of LINT-RULES.md and
// returns findings as diag.Diagnostics. Rules are data in one registry
// (registry.go); `wop pack rules`, --explain and SARIF are derived from it.
package lint

import (
	"github.com/wop-cli/wop/internal/agf"
	"github.com/wop-cli/wop/internal/diag"
	"strings"
)

// Rule is one lint rule.
type Rule struct {
	ID       string        // kebab-case, stable forever
	Severity diag.Severity // default severity
	Summary  string        // one line, for `wop pack rules` and SARIF
	// Check reports findings for the pack in the pass. Rules that need a
	// parsed manifest are only run when pack.json parsed.
	Check func(*Pass)
	// Raw marks rules that run even when pack.json did not parse (file and
	// encoding rules).
	Raw bool
}

// Info returns the rule's metadata for printers.
func (r *Rule) Info() diag.RuleInfo {
	return diag.RuleInfo{ID: r.ID, Severity: r.Severity, Summary: r.Summary}
}

// Lookup returns the rule with id, or nil.
func Lookup(id string) *Rule {
	for _, r := range All() {
		if r.ID == id {
			return r
		}
	}
	return nil
}

// Infos returns every rule's metadata, in registry order, followed by the
// AgentFormat rules that pack lint also applies to *.agf.yaml files.
func Infos() []diag.RuleInfo {
	return infos(false)
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
	for _, r := range agf.Rules() {
		out = append(out, diag.RuleInfo{ID: r.ID, Severity: r.Severity, Summary: r.Summary})
	}
	return out
}
