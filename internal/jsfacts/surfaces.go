package jsfacts

import (
	"slices"
	"strings"
)

// hostSurfaces are the ctx members through which a node reaches the host:
// the reference host's executor context (openwop-app-install,
// backend/typescript/src/executor/executor.ts) and the host.* surfaces of
// spec/v1/host-capabilities.md. ctx.emit, ctx.inputs, ctx.config and the
// interrupt primitives are not among them: they do not make a node's output
// depend on anything but its input.
var hostSurfaces = []string{
	"a2a", "agentRuntime", "aiEnvelope", "brand", "callAI", "callAIWithTools",
	"callImageGenerator", "callSpeechSynthesizer", "callTranscriber", "callVideoGenerator",
	"campaignMessaging", "canvas", "chat", "coordination", "db", "entities", "features",
	"fs", "http", "kanban", "knowledge", "launchStudio", "mcp", "memory", "messaging",
	"queueBus", "secrets", "storage", "variables", "webResearch",
}

// ctxData are the executor context's members that carry the run's own data
// (its input, configuration, trigger and ids) or touch nothing the output
// depends on (logging, cancellation): a method called on them is no call
// into the host.
var ctxData = []string{"inputs", "input", "config", "triggerData", "state", "signal", "log", "logger", "console", "trustBoundary"}

// isContextMember says whether a ctx member is neither the run's data nor
// an id, so a method called through it reaches the host.
func isContextMember(name string) bool {
	return name != "" && !slices.Contains(ctxData, name) && !strings.HasSuffix(name, "Id") && !strings.HasSuffix(name, "ID")
}

// member is base.name, recording what a node reads through it.
func (a *analysis) member(base val, name string, at []byte) val {
	if name == "" {
		return val{}
	}
	switch base.k {
	case vCtx:
		if name == "inputs" || name == "input" {
			return val{k: vInputs}
		}
		if a.node != nil && slices.Contains(hostSurfaces, name) {
			a.surface(name, at)
		}
		return val{k: vMember, name: name, at: at}
	case vMember:
		return val{k: vMember, name: base.name + "." + name, at: at}
	case vInputs:
		if a.node != nil {
			if _, seen := a.node.inputs[name]; !seen {
				a.node.inputs[name] = &Fact{Input: name, Kind: Passed, At: a.lineOf(at)}
			}
		}
		return val{k: vInput, name: name}
	case vInput, vDefaulted, vDerived:
		return val{k: vDerived, name: base.name}
	}
	return val{}
}

func (a *analysis) surface(s string, at []byte) {
	if _, seen := a.node.surfaces[s]; !seen {
		a.node.surfaces[s] = a.lineOf(at)
	}
}

// dynamic notes that the node reads its inputs in a way that names no key.
func (a *analysis) dynamic() {
	if a.node != nil {
		a.node.dynamic = true
	}
}

// escape notes a value handed to code the analysis does not follow: the
// inputs object (or ctx, which holds it) read there in any way.
func (a *analysis) escape(v val) {
	if a.node == nil || a.node.dynamic {
		return
	}
	if v.k == vInputs || v.k == vCtx {
		a.node.dynamic = true
	}
}

// hostCall records a method called through a member of ctx that is not its
// data and not a known host surface (which member already recorded):
// ctx.dataIntegration.transform(...) reaches the host whatever the host
// calls that member.
func (a *analysis) hostCall(callee val) {
	path := callee.name
	if a.node == nil {
		return
	}
	first, rest, isMethod := strings.Cut(path, ".")
	if !isMethod || !isContextMember(first) || slices.Contains(hostSurfaces, first) {
		return
	}
	if last := rest[strings.LastIndexByte(rest, '.')+1:]; last == "call" || last == "apply" || last == "bind" {
		if i := strings.LastIndexByte(rest, '.'); i >= 0 {
			rest = rest[:i]
		} else {
			return // ctx.x.call(...): x itself is called
		}
	}
	a.surface(first+"."+rest+"()", callee.at)
}
