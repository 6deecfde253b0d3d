package lintrun

import (
	"maps"

	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/lint"
)

// Gate is how strictly lint stands between a source and an archive.
type Gate int

const (
	GateOff     Gate = iota // --no-lint
	GateBuild               // build: lint errors stop it
	GatePublish             // publish: also what must not reach a registry
)

// GateFor is the gate of build (publishing false) or publish.
func GateFor(noLint, publishing bool) Gate {
	switch {
	case noLint:
		return GateOff
	case publishing:
		return GatePublish
	}
	return GateBuild
}

// publishOnlyErrors are warnings while a pack is written and errors when it
// is published: init's placeholders would go out as the pack's public text.
var publishOnlyErrors = []string{"placeholder-left"}

// Options returns opt for the gate: at publish, publishOnlyErrors become
// errors unless the configuration chose their severity (off included).
func (g Gate) Options(opt lint.Options) lint.Options {
	if g != GatePublish {
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
