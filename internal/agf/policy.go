package agf

import (
	"fmt"
	"slices"
	"strings"
)

// step is a sub-agent invocation of a policy: its agent alias and where it
// sits.
type step struct {
	ptr   string // the step object
	agent string
}

const policyConfig = "/execution_policy/config"

// steps lists the invocations of the policy's steps (sequential, loop) or
// agents (parallel), in order.
func (d *Doc) steps() []step {
	var out []step
	cfg := obj(d.Get(policyConfig))
	for _, key := range []string{"steps", "agents"} {
		for i, st := range arr(cfg[key]) {
			out = append(out, step{fmt.Sprintf("%s/%s/%d", policyConfig, key, i), str(obj(st)["agent"])})
		}
	}
	return out
}

// outputReads lists the path expressions in an input_mapping that read a
// sub-agent's output (parent and malformed paths are other rules' business).
func (d *Doc) outputReads(mappingPtr string) []pathSite {
	var out []pathSite
	mapping := obj(d.Get(mappingPtr))
	for _, field := range sortedKeys(mapping) {
		expr := str(mapping[field])
		if p, err := ParsePath(expr); err == nil && p.Side == "output" && p.Root != "parent" {
			out = append(out, pathSite{ptr: mappingPtr + "/" + escape(field), expr: expr, root: p.Root})
		}
	}
	return out
}

// CheckPathAvailability reports paths that read the output of a sub-agent
// that cannot have run yet: only earlier steps' outputs exist. A loop is
// not checked: a later step's output from the previous iteration may be
// what the author means.
func CheckPathAvailability(p *Pass) {
	known := p.agents()
	policy := str(p.Doc.Get("/execution_policy/id"))
	report := func(s pathSite, why string) {
		if slices.Contains(known, s.root) {
			p.Report(s.ptr, s.key, "%q reads the output of %s; %s", s.expr, s.root, why)
		}
	}
	switch policy {
	case "agf.sequential":
		steps := p.Doc.steps()
		for i, st := range steps {
			for _, s := range p.Doc.outputReads(st.ptr + "/input_mapping") {
				switch later := slices.IndexFunc(steps[i+1:], func(o step) bool { return o.agent == s.root }); {
				case s.root == st.agent:
					report(s, "a step cannot read its own output: it does not exist until the step ends")
				case slices.ContainsFunc(steps[:i], func(o step) bool { return o.agent == s.root }):
				case later >= 0:
					report(s, fmt.Sprintf("that is step %d, which runs after this one: only earlier steps' outputs exist", i+later+2))
				default:
					report(s, "it is not a step of this policy, so its output never exists")
				}
			}
		}
	case "agf.parallel":
		for _, st := range p.Doc.steps() {
			for _, s := range p.Doc.outputReads(st.ptr + "/input_mapping") {
				report(s, "parallel agents run at the same time, so none can read another's (or its own) output: map from parent.input")
			}
		}
	case "agf.batch":
		agent := str(p.Doc.Get(policyConfig + "/agent"))
		for _, s := range p.Doc.outputReads(policyConfig + "/input_mapping") {
			if s.root == agent {
				report(s, "the batch agent cannot read its own output: map from parent.input")
			}
		}
	case "agf.conditional":
		for i, r := range arr(p.Doc.Get(policyConfig + "/routes")) {
			route := fmt.Sprintf("%s/routes/%d", policyConfig, i)
			for _, s := range p.Doc.outputReads(route + "/input_mapping") {
				report(s, "no sub-agent has run when a route is chosen: map from parent.input")
			}
			for _, s := range conditionReads(obj(r)["when"], route+"/when") {
				report(s, "route conditions are evaluated before any sub-agent runs: test parent.input")
			}
		}
	}
}

// conditionReads lists the args_match keys of a condition (one group or a
// list of them) that read a sub-agent's output.
func conditionReads(v any, ptr string) []pathSite {
	groups := []any{v}
	ptrs := []string{ptr}
	if list, ok := v.([]any); ok {
		groups, ptrs = list, nil
		for i := range list {
			ptrs = append(ptrs, fmt.Sprintf("%s/%d", ptr, i))
		}
	}
	var out []pathSite
	for i, g := range groups {
		args := obj(obj(g)["args_match"])
		for _, key := range sortedKeys(args) {
			if p, err := ParsePath(key); err == nil && p.Side == "output" && p.Root != "parent" {
				out = append(out, pathSite{ptr: ptrs[i] + "/args_match/" + escape(key), expr: key, root: p.Root, key: true})
			}
		}
	}
	return out
}

// CheckOutputFromStep reports an output_from that names a declared
// sub-agent the policy never runs: there is no output to return.
func CheckOutputFromStep(p *Pass) {
	ptr, alias := policyConfig+"/output_from", ""
	switch of := p.Doc.Get(ptr).(type) {
	case string:
		if !slices.Contains([]string{"last", "merge", "first"}, of) {
			alias = of
		}
	case map[string]any:
		ptr, alias = ptr+"/agent", str(of["agent"])
	}
	steps := p.Doc.steps()
	if alias == "" || len(steps) == 0 || !slices.Contains(p.agents(), alias) {
		return // no agent named, no steps, or agf-step-unknown-agent
	}
	if !slices.ContainsFunc(steps, func(s step) bool { return s.agent == alias }) {
		var names []string
		for _, s := range steps {
			names = append(names, s.agent)
		}
		p.Report(ptr, false, "output_from %q names a sub-agent this policy never runs, so there is no output to return; name one of its steps (%s)", alias, joinUnique(names))
	}
}

func joinUnique(names []string) string {
	slices.Sort(names)
	return strings.Join(slices.Compact(names), ", ")
}
