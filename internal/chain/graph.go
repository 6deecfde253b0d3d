package chain

import (
	"fmt"
	"strings"

	"github.com/wop-cli/wop/internal/jsonpos"
)

// cycle reports the first edge found closing a cycle: one per DAG, as
// fixing it may fix the rest.
func (a *analyzer) cycle() {
	next := map[string][]Edge{}
	for _, e := range a.d.Edges {
		next[e.From] = append(next[e.From], e)
	}
	state := map[string]int{} // 0 unseen, 1 on the path, 2 done
	var visit func(id string) bool
	visit = func(id string) bool {
		state[id] = 1
		for _, e := range next[id] {
			switch state[e.To] {
			case 1:
				a.report(Finding{Rule: RuleCycle, Pointer: e.Pointer, Edge: e.Pointer,
					Message: fmt.Sprintf("edge %s -> %s closes a cycle; a DAG runs each node once: remove the edge or use a loop node", e.From, e.To)})
				return true
			case 0:
				if visit(e.To) {
					return true
				}
			}
		}
		state[id] = 2
		return false
	}
	for _, n := range a.d.Nodes {
		if state[n.ID] == 0 && visit(n.ID) {
			return
		}
	}
}

func (a *analyzer) unreachable() {
	if len(a.d.Nodes) < 2 {
		return
	}
	linked := map[string]bool{}
	for _, e := range a.d.Edges {
		linked[e.From], linked[e.To] = true, true
	}
	for _, n := range a.d.Nodes {
		if !linked[n.ID] {
			a.report(Finding{Rule: RuleNodeUnreachable, Pointer: n.Pointer, Node: n.ID,
				Message: fmt.Sprintf("node %q has no edge: nothing runs after it and nothing feeds it, so the chain's other nodes never see its output; connect it or delete it", n.ID)})
		}
	}
}

// sideEffectUngated reports a node with effects outside the run and no
// gate among its ancestors. A gate that also has effects (it posts the
// approval request) is the approval: it needs no gate before itself.
func (a *analyzer) sideEffectUngated() {
	gated := a.gated()
	for i := range a.d.Nodes {
		n := &a.d.Nodes[i]
		if !sideEffectful(n) || isGate(n) || gated[n.ID] {
			continue
		}
		a.report(Finding{Rule: RuleSideEffectUngated, Pointer: n.Pointer, Node: n.ID,
			Message: fmt.Sprintf("node %q (%s) has effects outside the run and no approval gate before it: add an approval gate upstream", n.ID, n.TypeID)})
	}
}

// gated returns the ids some gate is an ancestor of: what the edges reach
// from a gate, walked once from all gates together.
func (a *analyzer) gated() map[string]bool {
	next := map[string][]string{}
	for _, e := range a.d.Edges {
		next[e.From] = append(next[e.From], e.To)
	}
	var queue []string
	for id := range next {
		if n := a.d.Node(id); n != nil && isGate(n) {
			queue = append(queue, next[id]...)
		}
	}
	seen := map[string]bool{}
	for len(queue) > 0 {
		id := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		if !seen[id] {
			seen[id] = true
			queue = append(queue, next[id]...)
		}
	}
	return seen
}

// titleFindings reports a node title that is another chain's label and not
// its own chain's: the trace of a scripted edit that copied one chain's
// notify node into another, so its notifications announce the wrong
// workflow. Titles are the "title" members of a node's inputs and config.
func titleFindings(root *jsonpos.Value, an *Analysis, o Options) {
	labels := map[string]string{} // label -> chainId
	eachObject(root.Get("chains"), "/chains", func(_ string, c *jsonpos.Value) {
		if l := strings.TrimSpace(c.Get("label").String()); l != "" {
			if _, dup := labels[l]; !dup {
				labels[l] = c.Get("chainId").String()
			}
		}
	})
	if len(labels) < 2 {
		return
	}
	eachObject(root.Get("chains"), "/chains", func(ptr string, c *jsonpos.Value) {
		own := strings.TrimSpace(c.Get("label").String())
		d := an.dagAt(ptr + "/dag")
		if d == nil {
			return
		}
		eachObject(c.Get("dag").Get("nodes"), ptr+"/dag/nodes", func(np string, n *jsonpos.Value) {
			for _, member := range []string{"inputs", "config"} {
				title := n.Get(member).Get("title")
				if title == nil || title.Kind != jsonpos.String {
					continue
				}
				t := strings.TrimSpace(title.Str)
				if other, ok := labels[t]; ok && t != own {
					id := n.Get("id").String()
					d.Findings = append(d.Findings, Finding{Rule: RuleNodeTitleForeign, Pointer: np + "/" + member + "/title", Node: id,
						Message: fmt.Sprintf("node %q carries the title %q, the label of chain %q, not of its own chain %q (%q): a copy left by an edit; %s", id, t, other, c.Get("chainId").String(), own, titleFix(d, id, member, o))})
				}
			}
		})
	})
}

func (an *Analysis) dagAt(ptr string) *DAG {
	for _, d := range an.DAGs {
		if d.Pointer == ptr {
			return d
		}
	}
	return nil
}
