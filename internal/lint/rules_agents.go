package lint

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/regex"
	"github.com/wop-cli/wop/internal/spec"
	"github.com/wop-cli/wop/internal/suggest"
)

func eachAgent(p *Pass, fn func(ptr string, a *jsonpos.Value)) {
	eachObject(p.Root().Get("agents"), "/agents", fn)
}

func checkDuplicateAgentID(p *Pass) {
	seen := map[string]string{}
	eachAgent(p, func(ptr string, a *jsonpos.Value) {
		id := a.Get("agentId").String()
		if first, dup := seen[id]; dup && id != "" {
			p.Reportf(ptr+"/agentId", "agentId %q is already used at %s; agent ids are global and must be unique: rename one", id, p.At(first+"/agentId"))
		}
		seen[id] = ptr
	})
}

// checkAgentIDUnderPack holds a v1 agentId to <pack name>.<segment>, as the
// v1 schema's namespace tiers do. v2 drops the tiers (the ids grammar is
// the whole rule, "<tier>.<org>.<pack>.<agent>" only a convention), so a v2
// pack's agentId is held to that grammar instead.
func checkAgentIDUnderPack(p *Pass) {
	if p.Spec == spec.V2 {
		checkAgentIDGrammarV2(p)
		return
	}
	if !nameValid(p) {
		return // the id to write would copy the bad name; the name's finding comes first
	}
	name := packName(p)
	eachAgent(p, func(ptr string, a *jsonpos.Value) {
		id := a.Get("agentId").String()
		if id == "" || strings.HasPrefix(id, "host:") || strings.HasPrefix(id, "local.") {
			return // other rules say why
		}
		if !strings.HasPrefix(id, name+".") || strings.Contains(strings.TrimPrefix(id, name+"."), ".") {
			p.Reportf(ptr+"/agentId", "agentId %q must be <pack name>.<segment>; write %q", id, name+"."+lastSegment(id))
		}
	})
}

func checkAgentIDGrammarV2(p *Pass) {
	grammar, err := spec.IDPattern("agentId")
	if err != nil {
		p.Reportf("", "%v", err)
		return
	}
	eachAgent(p, func(ptr string, a *jsonpos.Value) {
		id := a.Get("agentId")
		if id == nil || id.Kind != jsonpos.String || strings.HasPrefix(id.Str, "host:") || strings.HasPrefix(id.Str, "local.") {
			return // the schema, agent-id-host-namespace and agent-id-local say why
		}
		if !grammar.MatchString(id.Str) {
			p.Reportf(ptr+"/agentId", "agentId %q is outside the v2 id grammar %s (1-128 letters, digits and . _ ~ : -); write e.g. %q", id.Str, grammar, packName(p)+"."+agentIDSegment(id.Str))
		}
	})
}

// agentIDSegment makes the last segment of id fit the v2 grammar.
func agentIDSegment(id string) string {
	seg := strings.Map(func(r rune) rune {
		if r < 0x80 && (r == '_' || r == '~' || r == '-' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9') {
			return r
		}
		return '-'
	}, lastSegment(id))
	if seg = strings.Trim(seg, "-"); seg == "" {
		return "agent"
	}
	return seg
}

func lastSegment(id string) string { return id[strings.LastIndexByte(id, '.')+1:] }

func checkAgentIDHost(p *Pass) {
	eachAgent(p, func(ptr string, a *jsonpos.Value) {
		if id := a.Get("agentId").String(); strings.HasPrefix(id, "host:") {
			p.Reportf(ptr+"/agentId", "agentId %q uses the host: form, which names host-internal agents at run time and never appears in a manifest; write %q", id, packName(p)+"."+strings.TrimPrefix(id, "host:"))
		}
	})
}

func checkAgentIDLocal(p *Pass) {
	if strings.HasPrefix(packName(p), "local.") {
		return
	}
	eachAgent(p, func(ptr string, a *jsonpos.Value) {
		if id := a.Get("agentId").String(); strings.HasPrefix(id, "local.") {
			p.Reportf(ptr+"/agentId", "agentId %q is in the local.* namespace, which no published pack may use; write %q", id, packName(p)+"."+lastSegment(id))
		}
	})
}

func checkPureAgentRuntime(p *Pass) {
	root := p.Root()
	if root.Get("agents") == nil || root.Get("nodes") != nil {
		return
	}
	if lang := root.Get("runtime").Get("language").String(); lang != "remote" && root.Get("runtime") != nil {
		p.Reportf("/runtime/language", "a pack with agents and no nodes is interpreted by the host: set runtime.language to \"remote\" (entry \"pack.json\"), not %q", lang)
	}
}

func checkSystemPromptXor(p *Pass) {
	eachAgent(p, func(ptr string, a *jsonpos.Value) {
		inline, ref := a.Get("systemPrompt") != nil, a.Get("systemPromptRef") != nil
		switch {
		case inline && ref:
			p.Reportf(ptr+"/systemPrompt", "agent %q sets both systemPrompt and systemPromptRef; keep exactly one (the file, for long prompts)", a.Get("agentId").String())
		case !inline && !ref:
			p.Reportf(ptr, "agent %q has no system prompt; set systemPromptRef (a prompts/*.md file) or systemPrompt", a.Get("agentId").String())
		}
	})
}

func checkSkillProfile(p *Pass) {
	eachAgent(p, func(ptr string, a *jsonpos.Value) {
		// Only role "skill" opts in: the agent manifest's role is explicit,
		// never inferred (RFC 0131: a handoff does not make a skill, and an
		// agent without a role is unconstrained).
		if a.Get("role").String() != "skill" {
			return
		}
		if a.Get("handoff") == nil {
			p.Reportf(ptr+"/role", "a role \"skill\" agent must declare handoff (taskSchemaRef/returnSchemaRef): skills are invoked task→return")
		}
		const who = "a role \"skill\" agent"
		for _, m := range []string{"conversation", "longTerm"} {
			if v := a.Get("memoryShape").Get(m); v != nil && v.Kind == jsonpos.Bool && v.Bool {
				p.Reportf(ptr+"/memoryShape/"+m, "%s is stateless: memoryShape.%s must be false (persistent memory belongs to the assistant that composes it), or set the role it should have", who, m)
			}
		}
	})
}

var toolRE = regex.Lazy(`^(openwop|mcp|[a-z][a-z0-9-]*\.[a-z][a-z0-9.-]*):[^\s:]+$`)

func eachTool(p *Pass, fn func(agentPtr, ptr, tool string, a *jsonpos.Value)) {
	eachAgent(p, func(aptr string, a *jsonpos.Value) {
		if tl := a.Get("toolAllowlist"); tl != nil && tl.Kind == jsonpos.Array {
			for i, t := range tl.Items {
				fn(aptr, fmt.Sprintf("%s/toolAllowlist/%d", aptr, i), t.String(), a)
			}
		}
	})
}

func checkToolAllowlistMalformed(p *Pass) {
	eachTool(p, func(_, ptr, tool string, _ *jsonpos.Value) {
		if !toolRE().MatchString(tool) {
			p.Reportf(ptr, "tool %q is not <scope>:<tool-id> with scope openwop, mcp or <vendor>.<host> (e.g. \"openwop:core.openwop.http.fetch\")", tool)
		}
	})
}

// knownTypeID reports whether this pack or the catalog defines id.
func knownTypeID(p *Pass, own map[string]bool, id string) bool {
	return own[id] || p.Catalog != nil && p.Catalog.HasType(id)
}

// fromDependency reports whether id lies under a declared dependency's name:
// without a catalog that is the best wop can know.
func fromDependency(p *Pass, id string) bool {
	deps := p.Root().Get("dependencies")
	if deps == nil {
		return false
	}
	for _, m := range deps.Members {
		if strings.HasPrefix(id, m.Name+".") {
			return true
		}
	}
	return false
}

func checkToolAllowlistUnresolved(p *Pass) {
	own := nodeTypeIDs(p)
	eachTool(p, func(_, ptr, tool string, _ *jsonpos.Value) {
		id, ok := strings.CutPrefix(tool, "openwop:")
		if !ok || knownTypeID(p, own, id) || p.Catalog == nil && fromDependency(p, id) {
			return
		}
		if p.Catalog != nil {
			p.ReportSeverity(p.rule.Severity.Raise(), ptr, "tool %q: no pack in the catalog defines typeId %q", tool, id)
			return
		}
		p.Reportf(ptr, "tool %q: typeId %q is not defined by this pack or under a declared dependency; add the providing pack to dependencies (or lint with --catalog to check every pack)", tool, id)
	})
}

var toolMention = regex.Lazy(`openwop:[a-zA-Z0-9._-]*[a-zA-Z0-9]`)

// prohibition matches the words before a mention that forbid the call
// ("do not call openwop:x"): a prohibited tool is not one the model calls.
var prohibition = regex.Lazy(`(?i)\b(do not|don't|never|must not|mustn't|should not|shouldn't|avoid|not allowed to|instead of)\b[^.!?\n]*$`)

// toolCall is a tool text tells the model to use, and the byte offset in
// the text where its mention starts (a prompt's finding is placed there).
type toolCall struct {
	ID  string
	Off int
}

// toolCalls returns the openwop: tools text tells the model to use: not
// wildcards (openwop:core.dispatch.*) and not prohibited ones.
func toolCalls(text string) []toolCall {
	var out []toolCall
	for _, loc := range toolMention().FindAllStringIndex(text, -1) {
		rest := text[loc[1]:]
		if strings.HasPrefix(rest, ".*") || strings.HasPrefix(rest, "*") {
			continue
		}
		before := text[max(0, loc[0]-80):loc[0]]
		if prohibition().MatchString(before) {
			continue
		}
		out = append(out, toolCall{ID: text[loc[0]:loc[1]], Off: loc[0]})
	}
	return out
}

func checkPromptToolIDs(p *Pass) {
	eachAgent(p, func(aptr string, a *jsonpos.Value) {
		allowed := map[string]bool{}
		if tl := a.Get("toolAllowlist"); tl != nil && tl.Kind == jsonpos.Array {
			for _, t := range tl.Items {
				allowed[t.String()] = true
			}
		}
		// report places a prompt file's finding at the mention (the first,
		// when the prompt names a tool more than once); a description's or
		// inline prompt's at its member of pack.json.
		report := func(where, ptr, file string, text string) {
			seen := map[string]bool{}
			for _, m := range toolCalls(text) {
				if allowed[m.ID] || seen[m.ID] {
					continue
				}
				seen[m.ID] = true
				msg := fmt.Sprintf("%s names tool %q, which is not in agent %q's toolAllowlist%s; the model will call a tool the host refuses", where, m.ID, a.Get("agentId").String(), nearestTool(m.ID, allowed))
				if file == "" {
					p.Reportf(ptr, "%s", msg)
				} else {
					p.ReportOffset(file, []byte(text), m.Off, msg)
				}
			}
		}
		report("the description", aptr+"/description", "", a.Get("description").String())
		report("the inline system prompt", aptr+"/systemPrompt", "", a.Get("systemPrompt").String())
		if ref := a.Get("systemPromptRef").String(); ref != "" {
			if src, err := p.ReadFile(ref); err == nil {
				report("the prompt", "", ref, string(src))
			}
		}
	})
}

// nearestTool suggests the allowlisted tool a mention meant, when one
// stands out: the one ending in the same name under another namespace
// ("openwop:core.http.fetch" for "openwop:core.openwop.http.fetch"), else
// the one in the same namespace whose name starts like it or is a near
// spelling ("openwop:core.rag.retrieve" for "openwop:core.rag.retriever-basic"),
// else a near spelling of the whole id. Rivals as near mean no guess.
func nearestTool(mention string, allowed map[string]bool) string {
	tools := slices.Sorted(maps.Keys(allowed))
	dot := strings.LastIndexByte(mention, '.')
	space, tail := mention[:dot+1], mention[dot+1:]
	var sameName, sameSpace []string
	for _, t := range tools {
		td := strings.LastIndexByte(t, '.')
		switch ttail := t[td+1:]; {
		case ttail == tail:
			sameName = append(sameName, t)
		case t[:td+1] == space && (strings.HasPrefix(ttail, tail) || strings.HasPrefix(tail, ttail) || len(suggest.Closest(tail, []string{ttail}, 2)) == 1):
			sameSpace = append(sameSpace, t)
		}
	}
	for _, cands := range [][]string{sameName, sameSpace} {
		if len(cands) > 1 {
			cands = suggest.Closest(mention, cands, len(mention)) // the nearest of them
		}
		switch len(cands) {
		case 0:
			continue
		case 1:
			return fmt.Sprintf(" (did you mean %q?)", cands[0])
		}
		return "" // rivals as near: no guess
	}
	if meant, ok := suggest.Only(mention, tools, 3); ok {
		return fmt.Sprintf(" (did you mean %q?)", meant)
	}
	return ""
}

func checkMemoryPeerDep(p *Pass) {
	const key = "openwop.agents.memoryBackends"
	peer := p.Root().Get("peerDependencies").Get(key)
	uses := false
	eachAgent(p, func(_ string, a *jsonpos.Value) {
		if v := a.Get("memoryShape").Get("longTerm"); v != nil && v.Kind == jsonpos.Bool && v.Bool {
			uses = true
		}
	})
	switch {
	case peer != nil && !uses:
		p.Reportf("/peerDependencies/"+jsonpos.EscapeToken(key), "the pack requires long-term memory backends but no agent sets memoryShape.longTerm: hosts without them refuse the install for nothing; delete the peer dependency")
	case peer == nil && uses && p.Root().Get("agents") != nil:
		p.Reportf("/peerDependencies", "an agent sets memoryShape.longTerm but the pack does not declare \"%s\": \">=longTerm\"; hosts cannot tell it needs them", key)
	}
}

func checkPromptOverrideShadowed(p *Pass) {
	eachAgent(p, func(ptr string, a *jsonpos.Value) {
		if a.Get("promptOverrides").Get("system") != nil && (a.Get("systemPrompt") != nil || a.Get("systemPromptRef") != nil) {
			p.Reportf(ptr+"/promptOverrides/system", "promptOverrides.system never applies: the agent's own systemPrompt/systemPromptRef wins; delete one of them")
		}
	})
}

// agentRefClasses are the AgentRef modelClass values hosts route on.
var agentRefClasses = []string{"reasoning", "classification"}

func checkModelClassHosts(p *Pass) {
	eachAgent(p, func(ptr string, a *jsonpos.Value) {
		if mc := a.Get("modelClass").String(); mc != "" && !slices.Contains(agentRefClasses, mc) {
			p.Reportf(ptr+"/modelClass", "modelClass %q has no AgentRef equivalent (they share only reasoning and classification); hosts route it by their own mapping", mc)
		}
	})
}
