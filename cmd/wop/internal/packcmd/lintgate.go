package packcmd

import (
	"github.com/wop-cli/wop/internal/lint"
	"github.com/wop-cli/wop/internal/lintrun"
)

// lintGateMode is lintrun.Gate, named as this package's commands call it.
type lintGateMode lintrun.Gate

const (
	gateOff     = lintGateMode(lintrun.GateOff)
	gatePublish = lintGateMode(lintrun.GatePublish)
)

func gateFor(noLint, publishing bool) lintGateMode {
	return lintGateMode(lintrun.GateFor(noLint, publishing))
}

func (g lintGateMode) options(opt lint.Options) lint.Options { return lintrun.Gate(g).Options(opt) }
