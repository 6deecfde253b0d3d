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
	if strings.HasSuffix(pr.Pointer, "/typeId") && pr.Keyword == "pattern" && p.Manifest != nil {
		if v := p.Manifest.Lookup(pr.Pointer); v != nil && v.Kind == jsonpos.String {
			example := "community.you.notes"
			if nameValid(p) {
				example = packName(p)
			}
			return typeIDInWords(v.Str, p.Spec == spec.V2, example)
		}
	}
	return pr.Message
}

// typeIDInWords says what is wrong with a node typeId the schema's pattern
// refuses, and what one looks like, instead of quoting the regex: v1's
// ^[a-z][a-zA-Z0-9._-]*$, or v2's RFC 0107 grammar
// ^[a-z][a-z0-9-]*(\.[a-z][a-zA-Z0-9-]*)+$.
func typeIDInWords(id string, v2 bool, packName string) string {
	shape := `a typeId starts with a lowercase letter and holds only letters, digits, ".", "_" and "-"`
	if v2 {
		shape = `a typeId is two or more dot-separated parts, each starting with a lowercase letter, of letters, digits and "-" (the first part all lowercase)`
	}
	return fmt.Sprintf("typeId %q %s; %s: <pack name>.<node>, e.g. %s.summarize", id, typeIDFault(id, v2), shape, packName)
}

// typeIDFault names the first thing in id the grammar refuses.
func typeIDFault(id string, v2 bool) string {
	lower := func(c rune) bool { return c >= 'a' && c <= 'z' }
	alnum := func(c rune) bool { return lower(c) || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' }
	if id == "" {
		return "is empty"
	}
	if !v2 {
		if c := []rune(id)[0]; !lower(c) {
			return fmt.Sprintf("starts with %q, not a lowercase letter", string(c))
		}
		if i := strings.IndexFunc(id, func(c rune) bool { return !alnum(c) && c != '.' && c != '_' }); i >= 0 {
			return fmt.Sprintf("holds %q", string([]rune(id[i:])[0]))
		}
		return "does not match the typeId grammar"
	}
	parts := strings.Split(id, ".")
	if len(parts) < 2 {
		return `has no "."`
	}
	for i, part := range parts {
		switch {
		case part == "":
			return "has an empty part (two dots, or a dot at an end)"
		case !lower([]rune(part)[0]):
			return fmt.Sprintf("has the part %q, which starts with %q, not a lowercase letter", part, string([]rune(part)[0]))
		}
		if j := strings.IndexFunc(part, func(c rune) bool { return !alnum(c) || i == 0 && c >= 'A' && c <= 'Z' }); j >= 0 {
			return fmt.Sprintf("holds %q in the part %q", string([]rune(part[j:])[0]), part)
		}
	}
	return "does not match the typeId grammar"
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
