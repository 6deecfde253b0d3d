package packcmd

import (
	"maps"

	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/lint"
)

// lintGateMode is how strictly lint stands between a source and an archive.
type lintGateMode int

const (
	gateOff     lintGateMode = iota // --no-lint
	gateBuild                       // build: lint errors stop it
	gatePublish                     // publish: also what must not reach a registry
)

func gateFor(noLint, publishing bool) lintGateMode {
	switch {
	case noLint:
		return gateOff
	case publishing:
		return gatePublish
	}
	return gateBuild
}

// publishOnlyErrors are warnings while a pack is written and errors when it
// is published: init's placeholders would go out as the pack's public text.
var publishOnlyErrors = []string{"placeholder-left"}

// options returns opt for the gate: at publish, publishOnlyErrors become
// errors unless the configuration chose their severity (off included).
func (g lintGateMode) options(opt lint.Options) lint.Options {
	if g != gatePublish {
		return opt
	}
	sev := maps.Clone(opt.Severities)
	if sev == nil {
		sev = map[string]diag.Severity{}
	}
	for _, id := range publishOnlyErrors {
		if _, set := sev[id]; !set {
			sev[id] = diag.Error
		}
	}
	opt.Severities = sev
	return opt
}
