package lintrun

import (
	"slices"

	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/lint"
)

// GuardRules are the lint rules that stand between a pack and a registry
// whether or not lint runs (publish --no-lint): an init placeholder
// (TODO: text), a secret file, and what makes an archive unsafe to unpack.
// A version is immutable once published, so --no-lint may skip the style
// of a pack, never these.
var GuardRules = []string{
	"placeholder-left", "private-key-in-pack", "symlink-in-pack", "path-unsafe",
	"archive-unsafe-path", "archive-link", "archive-special-file",
	"archive-duplicate-entry", "archive-entry-too-large",
}

// IsGuardRule says whether id is one of GuardRules.
func IsGuardRule(id string) bool { return slices.Contains(GuardRules, id) }

// guardOptions returns opt narrowed to GuardRules: every other rule is off,
// and each guard rule is an error unless the configuration chose its
// severity (a deliberate "off" included: the author's, not the flag's).
func guardOptions(opt lint.Options) lint.Options {
	sev := make(map[string]diag.Severity, len(opt.Severities))
	for _, r := range lint.All() {
		if !IsGuardRule(r.ID) {
			sev[r.ID] = diag.Off
		}
	}
	for _, id := range GuardRules {
		sev[id] = diag.Error
	}
	for id, s := range opt.Severities {
		if IsGuardRule(id) {
			sev[id] = s
		}
	}
	opt.Severities = sev // part of the lint cache's key: no stale full-lint verdict
	return opt
}
