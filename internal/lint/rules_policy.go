package lint

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/regex"
)

// Policy rules are off unless a registry switches them on in .wop.yaml:
// they encode a house style, not a defect every host suffers from.

// defaultInternalRefs are what text-internal-reference looks for unless
// configured: design-record numbers and host context paths, which mean
// nothing to the people who read a pack's descriptions.
var defaultInternalRefs = []string{
	`\b(ADR|RFC)[ -]?\d{2,4}\b`,
	`\bctx\.[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*`,
}

// CompilePatterns compiles configured patterns, naming the first bad one.
func CompilePatterns(patterns []string) ([]*regexp.Regexp, error) {
	out := make([]*regexp.Regexp, 0, len(patterns))
	for _, p := range patterns {
		re, err := regexp.Compile(p)
		if err != nil {
			return nil, fmt.Errorf("pattern %q: %w", p, err)
		}
		out = append(out, re)
	}
	return out, nil
}

// userText calls fn with every text a pack shows its users: descriptions
// and labels of the pack, its nodes, agents and chains, and the help of
// chain parameters.
func userText(p *Pass, fn func(ptr, text string)) {
	root := p.Root()
	if d := root.Get("description"); d != nil && d.Kind == jsonpos.String {
		fn("/description", d.Str)
	}
	for _, list := range []string{"nodes", "agents", "chains"} {
		eachObject(root.Get(list), "/"+list, func(ptr string, v *jsonpos.Value) {
			for _, f := range []string{"label", "description"} {
				if t := v.Get(f); t != nil && t.Kind == jsonpos.String {
					fn(ptr+"/"+f, t.Str)
				}
			}
			if props := v.Get("parameters").Get("properties"); props != nil && props.Kind == jsonpos.Object {
				for _, m := range props.Members {
					if t := m.Value.Get("description"); t != nil && t.Kind == jsonpos.String {
						fn(ptr+"/parameters/properties/"+jsonpos.EscapeToken(m.Name)+"/description", t.Str)
					}
				}
			}
		})
	}
}

func checkTextInternalReference(p *Pass) {
	patterns := p.patterns[p.rule.ID]
	if patterns == nil {
		patterns, _ = CompilePatterns(defaultInternalRefs) // constant, valid
	}
	forDevelopers := p.Root().Get("nodes") != nil
	userText(p, func(ptr, text string) {
		var found []string
		for _, re := range patterns {
			for _, m := range re.FindAllString(text, 3) {
				if forDevelopers && isHostAPIPath(m) {
					continue
				}
				found = append(found, fmt.Sprintf("%q", m))
			}
		}
		if len(found) > 0 {
			p.Reportf(ptr, "user-facing text cites internal references (%s); readers of the registry cannot follow them: say what it means instead", strings.Join(found, ", "))
		}
	})
}

// isHostAPIPath reports whether a match is a host API path (ctx.db.query,
// ctx.http.safeFetch). A node pack's texts are read by the developers who
// wire its nodes into a host, and for them the host surface a node calls is
// the point: registries keep those paths on purpose. Design-record numbers
// (RFC 0013) stay findings there too, and chain, agent and prompt packs,
// whose texts the people running them read, are judged in full.
func isHostAPIPath(match string) bool {
	return strings.HasPrefix(match, "ctx.")
}

// gateTypeID matches node types that ask a person before the run goes on.
var gateTypeID = regex.Lazy(`(?i)(approval|gate\b|gate$|interrupt|human|review)`)

func checkChainSideEffectUngated(p *Pass) {
	for _, d := range dags(p) {
		parents := map[string][]string{}
		for _, e := range d.edges {
			parents[e.toNode] = append(parents[e.toNode], e.fromNode)
		}
		for _, n := range d.nodes {
			// A gate that also has effects (it posts the approval request)
			// is the approval: it needs no gate before itself.
			if !sideEffectful(p, n) || isGate(p, &n) || gatedBefore(p, d, parents, n.id) {
				continue
			}
			p.Reportf(n.ptr, "node %q (%s) has effects outside the run and no approval gate before it: add an approval gate upstream", n.id, n.typeID)
		}
	}
}

func sideEffectful(p *Pass, n dagNode) bool {
	t := nodeType(p, n)
	if t == nil {
		return false
	}
	return t.Role == "side-effect" || slices.Contains(t.Capabilities, "side-effectful")
}

func isGate(p *Pass, n *dagNode) bool {
	if t := nodeType(p, *n); t != nil && (t.Role == "gate" || t.Role == "human-input") {
		return true
	}
	return gateTypeID().MatchString(n.typeID)
}

// gatedBefore reports whether some ancestor of id is a gate.
func gatedBefore(p *Pass, d *dag, parents map[string][]string, id string) bool {
	seen := map[string]bool{}
	stack := append([]string(nil), parents[id]...)
	for len(stack) > 0 {
		cur := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[cur] {
			continue
		}
		seen[cur] = true
		if n := d.node(cur); n != nil && isGate(p, n) {
			return true
		}
		stack = append(stack, parents[cur]...)
	}
	return false
}
