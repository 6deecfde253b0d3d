package lint

import (
	"github.com/wop-cli/wop/internal/agf"
	"github.com/wop-cli/wop/internal/diag"
)

// AgentFormatOptions configure a lint of AgentFormat files.
type AgentFormatOptions struct {
	Strict bool // agf-unknown-field is an error
	// Severities overrides rules' default severities; Off skips a rule.
	Severities map[string]diag.Severity
	// InPack says the files are a pack's, which `wop pack lint --fix`
	// fixes: only then is a finding's suggestion Fixable. Elsewhere (wop
	// agf lint, a file outside any pack) it is offered in the editor only.
	InPack bool
}

// AgentFormat lints AgentFormat files, and the sub-agent files they pull
// in, with the registry's agf-* rules. src reads and names the files.
func AgentFormat(names []string, src agf.Source, opt AgentFormatOptions) ([]diag.Diagnostic, error) {
	rules := All()
	run := func(p *agf.Pass) {
		for _, r := range rules {
			if r.AgentFormat == nil || !p.Parsed() && !r.Raw {
				continue
			}
			if sev, ok := opt.Severities[r.ID]; ok && sev == diag.Off {
				continue
			}
			p.SetRule(r.ID, r.Severity)
			r.AgentFormat(p)
		}
	}
	ds, err := agf.LintTree(names, src, agf.Options{Strict: opt.Strict, Rules: run})
	if !opt.InPack {
		for i := range ds {
			ds[i].Fixable = false
		}
	}
	return ds, err
}
