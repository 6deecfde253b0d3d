package lint

import (
	"fmt"
	"maps"
	"strings"

	"github.com/wop-cli/wop/internal/diag"
)

// A RuleProfile is a named set of severities for one kind of gate
// (`profile:` in .wop.yaml, --profile). The registry's CI judges packs its
// users install, so the rules that describe a pack broken for them are
// errors there, while pack authors keep the rules' defaults. A profile is
// data: the table below, applied under the configuration's own severities.
type RuleProfile struct {
	Name       string
	Summary    string
	Severities map[string]diag.Severity
}

// ruleProfiles is every profile, by name.
func ruleProfiles() []RuleProfile {
	return []RuleProfile{
		{
			Name:    "registry",
			Summary: "registry gates: what leaves a pack broken for its users is an error",
			Severities: map[string]diag.Severity{
				"chain-input-unbound":        diag.Error, // a required input no edge or inputs binds
				"runtime-entry-exports":      diag.Error, // an entry without the nodes export hosts load
				"readme-link-broken":         diag.Error, // a link out of the pack in a README that ships
				"prompt-tool-id-unresolved":  diag.Error, // a prompt tells the model to call a tool that resolves nowhere
				"tool-allowlist-unresolved":  diag.Error, // an allowlisted tool no pack defines
				"role-pure-nondeterministic": diag.Error, // a pure node that draws randomness
				"role-pure-host-surface":     diag.Error, // a pure node that calls a host surface
				"signing-in-source":          diag.Error, // a hand-written signing block
			},
		},
	}
}

// RuleProfileNames lists the profiles, for messages and completion.
func RuleProfileNames() []string {
	var names []string
	for _, p := range ruleProfiles() {
		names = append(names, p.Name)
	}
	return names
}

// FindRuleProfile returns the profile called name; "" is no profile (nil).
func FindRuleProfile(name string) (*RuleProfile, error) {
	if name == "" {
		return nil, nil
	}
	for _, p := range ruleProfiles() {
		if p.Name == name {
			return &p, nil
		}
	}
	return nil, fmt.Errorf("no profile %q (known: %s)", name, strings.Join(RuleProfileNames(), ", "))
}

// WithProfile returns the severities a run uses: the profile's under the
// configured ones (a .wop.yaml that says a rule's severity has the last
// word). The configured map is not changed; a nil profile returns it.
func WithProfile(p *RuleProfile, configured map[string]diag.Severity) map[string]diag.Severity {
	if p == nil {
		return configured
	}
	out := maps.Clone(p.Severities)
	maps.Copy(out, configured)
	return out
}

// InfosFor is Infos with each rule's severity as the profile makes it.
func InfosFor(p *RuleProfile) []diag.RuleInfo {
	return withSeverities(p, Infos())
}

// InfosWithDocsFor is InfosWithDocs with each rule's severity as the
// profile makes it: a SARIF report's rule list says what the run used.
func InfosWithDocsFor(p *RuleProfile) []diag.RuleInfo {
	return withSeverities(p, InfosWithDocs())
}

// withSeverities sets each info's severity to the profile's, where it has one.
func withSeverities(p *RuleProfile, infos []diag.RuleInfo) []diag.RuleInfo {
	if p == nil {
		return infos
	}
	for i := range infos {
		if sev, ok := p.Severities[infos[i].ID]; ok {
			infos[i].Severity = sev
		}
	}
	return infos
}
