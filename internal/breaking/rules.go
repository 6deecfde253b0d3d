package breaking

import (
	"slices"

	"github.com/wop-cli/wop/internal/diag"
)

// Bump is a SemVer increment, ordered: None < Patch < Minor < Major.
type Bump int

// The increments a change can need or a version can make.
const (
	None Bump = iota
	Patch
	Minor
	Major
)

func (b Bump) String() string {
	return [...]string{"none", "patch", "minor", "major"}[b]
}

// Rule is one kind of change: its id, level and the bump it needs.
type Rule struct {
	ID       string
	Severity diag.Severity
	Bump     Bump
	Summary  string
}

// Rule ids the verdict and published-version checks use elsewhere.
const (
	RuleBumpInsufficient = "version-bump-insufficient"
	RuleVersionMutated   = "published-version-mutated"
)

// releaseRuleIDs are the rules that say a release is wrong, not merely
// what changed: lint --against reports them and they decide the verdict.
var releaseRuleIDs = []string{RuleBumpInsufficient, RuleVersionMutated}

// IsReleaseRule says whether id is one of the release rules.
func IsReleaseRule(id string) bool { return slices.Contains(releaseRuleIDs, id) }

// ReleaseRules are the rules lint --against adds to lint's own.
func ReleaseRules() []diag.RuleInfo {
	var out []diag.RuleInfo
	for _, r := range Infos() {
		if IsReleaseRule(r.ID) {
			out = append(out, r)
		}
	}
	return out
}

// Rules returns every change kind in report order. Errors break consumers
// and need a major version; warnings break some hosts or callers and need a
// minor one; info needs a patch.
func Rules() []Rule {
	return []Rule{
		{RuleBumpInsufficient, diag.Error, None, "the version bump is smaller than the changes need"},
		{RuleVersionMutated, diag.Error, Major, "the same version was published with other contents"},
		{"kind-changed", diag.Error, Major, "the pack's kind changed"},
		{"node-removed", diag.Error, Major, "a node typeId was removed (a rename is a removal and an addition)"},
		{"agent-removed", diag.Error, Major, "an agentId was removed"},
		{"chain-removed", diag.Error, Major, "a chainId was removed"},
		{"template-removed", diag.Error, Major, "a template or prompt templateId was removed"},
		{"node-config-accepts-less", diag.Error, Major, "a node's config schema rejects configs it accepted"},
		{"node-input-accepts-less", diag.Error, Major, "a node's input schema rejects inputs it accepted"},
		{"node-output-guarantees-less", diag.Error, Major, "a node's output schema allows outputs consumers did not expect"},
		{"agent-task-accepts-less", diag.Error, Major, "an agent's handoff task schema rejects tasks it accepted"},
		{"agent-return-guarantees-less", diag.Error, Major, "an agent's handoff return schema allows results callers did not expect"},
		{"chain-parameters-accept-less", diag.Error, Major, "a chain's parameters reject arguments they accepted"},
		{"chain-output-removed", diag.Error, Major, "a chain no longer declares an output"},
		{"engines-narrowed", diag.Warning, Minor, "engines.openwop admits fewer protocol versions"},
		{"peer-dependency-added", diag.Warning, Minor, "a new required peer dependency"},
		{"runtime-requirement-added", diag.Warning, Minor, "a new runtime requirement or a higher minimum runtime version"},
		{"secret-added", diag.Warning, Minor, "a node needs a new secret or credential"},
		{"model-capability-added", diag.Warning, Minor, "a node needs a new model capability"},
		{"chain-node-unprovided", diag.Warning, Minor, "a chain uses a node type no declared dependency provides"},
		{"role-changed", diag.Warning, Minor, "a node's or agent's role changed"},
		{"contract-version-unchanged", diag.Warning, Minor, "a node's or chain's contract changed but its own version did not"},
		{"allowlist-narrowed", diag.Info, Patch, "an agent's tool allowlist lost entries"},
		{"prompt-changed", diag.Info, Patch, "an agent's or template's prompt changed"},
		{"dag-changed", diag.Info, Patch, "a chain's DAG changed"},
		{"category-changed", diag.Info, Patch, "a node's category changed"},
	}
}

// Infos returns the rules' metadata for printers (SARIF's rule table).
func Infos() []diag.RuleInfo {
	var out []diag.RuleInfo
	for _, r := range Rules() {
		out = append(out, diag.RuleInfo{ID: r.ID, Severity: r.Severity, Summary: r.Summary})
	}
	return out
}

func lookup(id string) Rule {
	for _, r := range Rules() {
		if r.ID == id {
			return r
		}
	}
	return Rule{ID: id, Severity: diag.Error, Bump: Major}
}
