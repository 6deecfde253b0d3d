package lint

import (
	"slices"
	"strings"

	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/schema"
)

// contentGroups are the top-level members that make a manifest a given kind.
var contentGroups = []struct {
	kind    string
	members []string
}{
	{"node", []string{"nodes", "agents"}},
	{"workflow-chain", []string{"chains"}},
	{"prompt", []string{"prompts"}},
	{"artifact-type", []string{"artifactTypes"}},
	{"card", []string{"cards"}},
	{"form-content", []string{"templates"}},
}

var declarativeKinds = []string{"workflow-chain", "prompt", "artifact-type", "card", "form-content", "connection"}

func manifestKind(p *Pass) string {
	if k := p.Root().Get("kind"); k != nil && k.Kind == jsonpos.String {
		return k.Str
	}
	return "node"
}

func checkKindUnknown(p *Pass) {
	if k := p.Root().Get("kind"); k != nil && k.Kind == jsonpos.String {
		if _, known := schema.ForKind(k.Str); !known {
			p.Reportf("/kind", "unknown pack kind %q; use node (or omit kind), workflow-chain, prompt, artifact-type, card, form-content or connection", k.Str)
		}
	}
}

func checkKindSchemaUnavailable(p *Pass) {
	if id, known := schema.ForKind(manifestKind(p)); known && id == "" {
		p.Reportf("/kind", "no schema is published for kind %q yet, so this manifest cannot be validated; wop does not guess its shape", manifestKind(p))
	}
}

func checkManifestSchema(p *Pass) {
	id, known := schema.ForKind(manifestKind(p))
	if !known || id == "" {
		return
	}
	problems, err := p.Schemas.Validate(id, p.Root().Interface())
	if err != nil {
		p.Reportf("", "%v", err)
		return
	}
	for _, pr := range problems {
		if claimedElsewhere(p, pr) {
			continue
		}
		p.ReportAt("pack.json", p.Manifest, pr.Pointer, pr.OnName, pr.Message)
	}
}

// claimedElsewhere drops schema problems that a more specific rule explains
// better, so one mistake gives one finding.
func claimedElsewhere(p *Pass, pr schema.Problem) bool {
	switch {
	case pr.Pointer == "/runtime" && pr.OnName && slices.Contains(declarativeKinds, manifestKind(p)):
		return true // declarative-kind-has-runtime
	case pr.Pointer == "/name" && strings.HasPrefix(p.Root().Get("name").String(), "local."):
		return true // name-scope-local
	case pr.Pointer == "/kind" && !pr.OnName:
		return true // kind-unknown / the kind selected the schema
	}
	return false
}

func checkPackKindMixed(p *Pass) {
	root := p.Root()
	var found []string
	for _, g := range contentGroups {
		for _, m := range g.members {
			if root.Get(m) != nil {
				found = append(found, g.kind+" ("+m+")")
				break
			}
		}
	}
	if len(found) > 1 {
		p.Reportf("", "manifest mixes content of several kinds: %s; split it into one pack per kind", strings.Join(found, ", "))
	}
}

func checkDeclarativeRuntime(p *Pass) {
	kind := manifestKind(p)
	if slices.Contains(declarativeKinds, kind) && p.Root().Get("runtime") != nil {
		p.ReportNamef("/runtime", "a %s pack is declarative and carries no code; delete runtime", kind)
	}
}
