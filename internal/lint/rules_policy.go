package lint

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/wop-cli/wop/internal/jsonpos"
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
