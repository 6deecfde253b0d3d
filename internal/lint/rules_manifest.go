package lint

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/packname"
	"github.com/wop-cli/wop/internal/schema"
	"github.com/wop-cli/wop/internal/spec"
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
	{"frontend-plugin", []string{"uiPlugins"}},
}

var declarativeKinds = []string{"workflow-chain", "prompt", "artifact-type", "card", "form-content", "connection"}

func manifestKind(p *Pass) string {
	if k := p.Root().Get("kind"); k != nil && k.Kind == jsonpos.String {
		return k.Str
	}
	return "node"
}

func checkKindUnknown(p *Pass) {
	k := p.Root().Get("kind")
	if k == nil || k.Kind != jsonpos.String {
		return
	}
	if _, known := schema.ForKind(p.Spec, k.Str); known {
		return
	}
	if schema.OnlyInV2(k.Str) {
		p.Reportf("/kind", "kind %q is defined by the v2 spec only, and this manifest is judged as v1; give engines.openwop a v2 range such as \">=2.0.0 <3.0.0\" (or lint with --spec v2)", k.Str)
		return
	}
	kinds := schema.Kinds()
	p.Reportf("/kind", "unknown pack kind %q; use node (or omit kind), %s or %s", k.Str, strings.Join(kinds[1:len(kinds)-1], ", "), kinds[len(kinds)-1])
}

func checkManifestSchema(p *Pass) {
	id, known := schema.ForKind(p.Spec, manifestKind(p))
	if !known {
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
		p.Suggest("pack.json", p.Manifest, pr.Pointer, pr.OnName, inWords(p, pr), pr.Meant, pr.Sure)
	}
}

// inWords is a schema problem's message, with the pack name's pattern (and
// an agentId's, the same grammar) explained as `wop pack init` explains it
// rather than printed as a regex.
func inWords(p *Pass, pr schema.Problem) string {
	if pr.Pointer == "/name" && pr.Keyword == "pattern" {
		name := packName(p)
		if problem := packname.Problem(name, packname.Tiers); problem != "" {
			return fmt.Sprintf("name %q: %s", name, problem)
		}
	}
	if i, rest, ok := agentPointer(pr.Pointer); ok && rest == "/agentId" && pr.Keyword == "pattern" {
		id := p.Root().Get("agents").Items[i].Get("agentId").String()
		if problem := packname.IDProblem(id, slices.Concat(packname.Tiers, []string{"local"})); problem != "" {
			return fmt.Sprintf("agentId %q: %s; an agentId is <pack name>.<agent>, e.g. community.you.notes.summarizer", id, problem)
		}
	}
	return pr.Message
}

// claimedElsewhere drops schema problems that a more specific rule explains
// better, so one mistake gives one finding.
func claimedElsewhere(p *Pass, pr schema.Problem) bool {
	root := p.Root()
	switch {
	case pr.Pointer == "/runtime" && pr.OnName && slices.Contains(declarativeKinds, manifestKind(p)):
		return true // declarative-kind-has-runtime
	case pr.Pointer == "/runtime" && manifestKind(p) == "frontend-plugin":
		return true // declarative-kind-has-runtime
	case pr.Pointer == "/name" && strings.HasPrefix(root.Get("name").String(), "local."):
		return true // name-scope-local
	case pr.Pointer == "/kind" && !pr.OnName:
		return true // kind-unknown; the kind selected the schema
	case pr.Pointer == "/version" && pr.Keyword == "pattern":
		return true // semver-invalid
	case pr.Keyword == "required" && slices.Contains(pr.Names, "engines") || strings.HasPrefix(pr.Pointer, "/engines"):
		return true // engines-range-invalid
	case pr.Keyword == "oneOf" && slices.Equal(pr.Names, []string{"systemPrompt", "systemPromptRef"}):
		return true // system-prompt-xor
	case p.Spec == spec.V2 && claimedByV2Rule(pr):
		return true
	}
	if i, rest, ok := agentPointer(pr.Pointer); ok {
		agent := root.Get("agents").Items[i]
		switch {
		case rest == "/agentId" && strings.HasPrefix(agent.Get("agentId").String(), "host:"):
			return true // agent-id-host-namespace
		case rest == "/agentId" && pr.Keyword == "pattern" && p.Spec == spec.V2:
			return true // agent-id-not-under-pack-name holds v2 agentIds to the v2 grammar
		case agent.Get("role").String() == "skill" && (rest == "" && pr.Keyword == "required" && slices.Contains(pr.Names, "handoff") || strings.HasPrefix(rest, "/memoryShape/")):
			return true // skill-profile-violation
		}
	}
	return false
}

// agentPointer splits "/agents/3/x" into 3 and "/x".
func agentPointer(ptr string) (int, string, bool) {
	rest, ok := strings.CutPrefix(ptr, "/agents/")
	if !ok {
		return 0, "", false
	}
	idx, tail, _ := strings.Cut(rest, "/")
	i, err := strconv.Atoi(idx)
	if err != nil {
		return 0, "", false
	}
	if tail != "" {
		tail = "/" + tail
	}
	return i, tail, true
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
	switch {
	case p.Root().Get("runtime") == nil:
	case slices.Contains(declarativeKinds, kind):
		p.ReportNamef("/runtime", "a %s pack is declarative and carries no code; delete runtime", kind)
	case kind == "frontend-plugin":
		p.ReportNamef("/runtime", "a frontend-plugin pack is sandboxed UI with no backend runtime, and a host refuses one that declares it (RFC 0117, pack_kind_invalid); delete runtime: the host loads each uiPlugins[].entry")
	}
}

// carriesRuntime reports whether the manifest's kind loads a runtime at
// all; for the others declarative-kind-has-runtime says all there is.
func carriesRuntime(p *Pass) bool {
	kind := manifestKind(p)
	return kind != "frontend-plugin" && !slices.Contains(declarativeKinds, kind)
}
