package lint

import (
	"fmt"
	"slices"
	"strings"

	"github.com/wop-cli/wop/hosts"
	"github.com/wop-cli/wop/internal/catalog"
	"github.com/wop-cli/wop/internal/chain"
	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/jsfacts"
	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/regex"
)

func eachNode(p *Pass, fn func(ptr string, n *jsonpos.Value)) {
	eachObject(p.Root().Get("nodes"), "/nodes", fn)
}

func checkDuplicateTypeID(p *Pass) {
	seen := map[string]string{}
	eachNode(p, func(ptr string, n *jsonpos.Value) {
		id := n.Get("typeId").String()
		if first, dup := seen[id]; dup && id != "" {
			p.Reportf(ptr+"/typeId", "typeId %q is defined twice (first at %s); hosts register one of them at random", id, first)
		}
		seen[id] = ptr
	})
}

func checkTypeIDLocal(p *Pass) {
	if strings.HasPrefix(packName(p), "local.") {
		return // a local pack may use local typeIds; name-scope-local covers it
	}
	eachNode(p, func(ptr string, n *jsonpos.Value) {
		if id := n.Get("typeId").String(); strings.HasPrefix(id, "local.") {
			p.Reportf(ptr+"/typeId", "typeId %q is in the local.* namespace, which no published pack may use; name it under the pack's name", id)
		}
	})
	knownHost := hosts.Providers(p.Catalog)
	walkTypeIDs(p.Root().Get("chains"), "/chains", func(ptr, id string) {
		if !strings.HasPrefix(id, "local.") || hostProvides(p, id) {
			return
		}
		if h := knownHost(id); h != nil {
			// The host's own node, not a developer's: the chain is written
			// for that host, as a chain over its other node types is
			// (chain-typeid-unresolved says those at information too).
			p.ReportSeverity(diag.Info, ptr, "the chain uses typeId %q, which host %s registers itself (wop's %s): the chain runs only on that host; lint with --host %s to check against it", id, h.Name, h.Path, h.Name)
			return
		}
		p.Reportf(ptr, "the chain uses typeId %q from the local.* namespace, which exists only in one developer's host; use the published node's typeId", id)
	})
}

// hostProvides reports whether a host profile of the catalog lists typeID:
// a chain that targets that host (--host) may use the local.* node it
// registers itself, as it may use its other node types.
func hostProvides(p *Pass, typeID string) bool {
	if p.Catalog == nil {
		return false
	}
	t, ok := p.Catalog.NodeType(typeID)
	return ok && strings.HasPrefix(t.Pack, catalog.HostPackPrefix)
}

// walkTypeIDs calls fn for every "typeId" string member below v.
func walkTypeIDs(v *jsonpos.Value, ptr string, fn func(ptr, id string)) {
	if v == nil {
		return
	}
	walkObjects(v, ptr, func(at string, m jsonpos.Member) {
		if m.Name == "typeId" && m.Value.Kind == jsonpos.String {
			fn(at+"/typeId", m.Value.Str)
		}
	})
}

func capabilities(n *jsonpos.Value) []string {
	var out []string
	if c := n.Get("capabilities"); c != nil && c.Kind == jsonpos.Array {
		for _, it := range c.Items {
			out = append(out, it.String())
		}
	}
	return out
}

func checkRolePureSideEffectful(p *Pass) {
	eachNode(p, func(ptr string, n *jsonpos.Value) {
		if n.Get("role").String() == "pure" && slices.Contains(capabilities(n), "side-effectful") {
			p.Reportf(ptr+"/role", "role \"pure\" contradicts capability \"side-effectful\": engines cache and replay pure nodes; use role \"side-effect\"")
		}
	})
}

// impureHint finds words that betray a node whose output is not a function
// of its input: ids, randomness, clocks, fresh tokens. A bare "timestamp" is
// not one: a trigger passing its fire time through reads no clock.
var impureHint = regex.Lazy(`(?i)\b(uuid|guid|random|nonce|now|clock|current (time|date)|generates? (a |an )?(id|token|key|password|timestamp))\b`)

// seeded marks text about a seeded generator: its "random" output is a
// function of the seed.
var seeded = regex.Lazy(`(?i)\bseed(ed|s)?\b`)

// impureDefault matches config default values that draw randomness or read
// the clock when the node runs.
var impureDefault = regex.Lazy(`(?i)^(uuid(v[1-7])?|guid|random|nonce|now|timestamp|current[-_ ]?(time|date)|clock)$`)

func checkPureNondeterministic(p *Pass) {
	eachNode(p, func(ptr string, n *jsonpos.Value) {
		if n.Get("role").String() != "pure" || slices.Contains(capabilities(n), "side-effectful") {
			return
		}
		text := n.Get("typeId").String() + " " + n.Get("label").String() + " " + n.Get("description").String()
		if m := impureMention(text); m != "" {
			p.Reportf(ptr+"/role", "role \"pure\" but the node mentions %q: a node that mints ids, reads the clock or draws randomness returns different output for the same input, and caching or replay would repeat one value; use role \"side-effect\" (and drop \"cacheable\")", m)
			return
		}
		if prop, def := impureConfigDefault(p, n.Get("configSchemaRef").String()); prop != "" {
			p.Reportf(ptr+"/role", "role \"pure\" but config %s defaults to %q: by default the node draws randomness or reads the clock, so caching or replay would repeat one value; use role \"side-effect\" or a deterministic default", prop, def)
		}
	})
}

func impureMention(text string) string {
	for _, m := range impureHint().FindAllString(strings.ReplaceAll(text, ".", " "), -1) {
		if strings.EqualFold(m, "random") && seeded().MatchString(text) {
			continue
		}
		return m
	}
	return ""
}

// impureConfigDefault finds a top-level config property whose default is a
// clock or randomness mode.
func impureConfigDefault(p *Pass, ref string) (prop, def string) {
	if ref == "" {
		return "", ""
	}
	doc, _, err := p.JSON(ref)
	if err != nil {
		return "", ""
	}
	props := doc.Root.Get("properties")
	if props == nil || props.Kind != jsonpos.Object {
		return "", ""
	}
	for _, m := range props.Members {
		if d := m.Value.Get("default"); d != nil && d.Kind == jsonpos.String && impureDefault().MatchString(d.Str) {
			return m.Name, d.Str
		}
	}
	return "", ""
}

func checkPureHostSurface(p *Pass) {
	eachNode(p, func(ptr string, n *jsonpos.Value) {
		if n.Get("role").String() != "pure" {
			return
		}
		for _, f := range []string{"requiresSecrets", "requires"} {
			if v := n.Get(f); v != nil && v.Kind == jsonpos.Array && len(v.Items) > 0 {
				p.Reportf(ptr+"/"+f, "role \"pure\" but the node declares %s: it calls a host surface (a provider, a service, a secret), whose answer is not a function of the input; use role \"side-effect\"", f)
				return
			}
		}
		node := packFacts(p).Node(n.Get("typeId").String())
		if node == nil {
			return
		}
		if used := node.Surfaces(); len(used) > 0 {
			p.Reportf(ptr+"/role", "role \"pure\" but its executor (%s) calls the host through ctx.%s, whose answer is not a function of the input; engines cache and replay pure nodes: use role \"side-effect\"", atLine(p, node.SurfaceAt(used[0])), strings.Join(used, ", ctx."))
		}
	})
}

// atLine renders where a fact of the executor was decided: module:line,
// or the entry when the analysis kept no position.
func atLine(p *Pass, at jsfacts.Pos) string {
	if at.File == "" {
		return runtimeEntry(p)
	}
	return at.String()
}

func checkNodeSchemaRefs(p *Pass) {
	eachNode(p, func(ptr string, n *jsonpos.Value) {
		if n.Get("configSchemaRef") == nil && n.Get("inputSchemaRef") == nil && n.Get("outputSchemaRef") == nil {
			p.Reportf(ptr, "node %q declares no config, input or output schema; hosts cannot validate its wiring: add configSchemaRef/inputSchemaRef/outputSchemaRef", n.Get("typeId").String())
		}
	})
}

func nodeTypeIDs(p *Pass) map[string]bool {
	ids := map[string]bool{}
	eachNode(p, func(_ string, n *jsonpos.Value) { ids[n.Get("typeId").String()] = true })
	return ids
}

func checkConnectorActions(p *Pass) {
	conn := p.Root().Get("connector")
	if conn == nil {
		return
	}
	ids := nodeTypeIDs(p)
	eachObject(conn.Get("actions"), "/connector/actions", func(ptr string, a *jsonpos.Value) {
		if id := a.Get("typeId").String(); !ids[id] {
			p.Reportf(ptr+"/typeId", "connector action %q is not a typeId in nodes[]; add the node or fix the id", id)
		}
	})
	if tr := conn.Get("triggers"); tr != nil && tr.Kind == jsonpos.Array {
		for i, t := range tr.Items {
			if !ids[t.String()] {
				p.Reportf(fmt.Sprintf("/connector/triggers/%d", i), "connector trigger %q is not a typeId in nodes[]; add the node or fix the id", t.String())
			}
		}
	}
}

func checkSecretProvider(p *Pass) {
	eachNode(p, func(ptr string, n *jsonpos.Value) {
		eachObject(n.Get("requiresSecrets"), ptr+"/requiresSecrets", func(sp string, s *jsonpos.Value) {
			if s.Get("kind").String() == "ai-provider" && s.Get("provider") == nil {
				p.Reportf(sp, "secret %q of kind ai-provider names no provider; add \"provider\": \"anthropic\" (or openai, gemini, ...) so hosts know which key to resolve", s.Get("id").String())
			}
		})
	})
}

func checkDuplicateSecretID(p *Pass) {
	eachNode(p, func(ptr string, n *jsonpos.Value) {
		seen := map[string]bool{}
		eachObject(n.Get("requiresSecrets"), ptr+"/requiresSecrets", func(sp string, s *jsonpos.Value) {
			id := s.Get("id").String()
			if seen[id] {
				p.Reportf(sp+"/id", "secret id %q is declared twice for this node", id)
			}
			seen[id] = true
		})
	})
}

// checkNodeInputRequiredFilled reports, once on the node's own pack, an
// input schema that requires what the node fills itself: chains that rely
// on the fallback work (hosts do not validate inputs) but look broken to
// everything that reads the schema, so chain-input-unbound skips such an
// input rather than report it on every chain. The executor counts only
// where its analysis shows a usable value put in the input's place
// (jsfacts.Fallback): a hollow one (”, {}, []), a failure, or code the
// analysis cannot follow fills nothing.
func checkNodeInputRequiredFilled(p *Pass) {
	eachNode(p, func(_ string, n *jsonpos.Value) {
		ref := n.Get("inputSchemaRef").String()
		if ref == "" {
			return
		}
		doc, _, err := p.JSON(ref)
		if err != nil {
			return // ref-missing, json-invalid
		}
		req, props := doc.Root.Get("required"), doc.Root.Get("properties")
		if req == nil || req.Kind != jsonpos.Array {
			return
		}
		typeID := n.Get("typeId").String()
		for i, r := range req.Items {
			if r.Kind != jsonpos.String {
				continue
			}
			if msg := requiredFilledMessage(p, typeID, r.Str, props.Get(r.Str)); msg != "" {
				p.ReportAt(ref, doc, fmt.Sprintf("/required/%d", i), false, msg)
			}
		}
	})
}

// requiredFilledMessage says why required input of typeID contradicts
// what fills it ("" when nothing does): the executor's own fallback
// first (the code is what runs); else the schema's default or documented
// fallback, which hosts never apply, so whether "required" or the default
// is wrong depends on the code: where the executor is seen to fail
// without the input, the default is the mistake; where the code cannot be
// read, both fixes are named and neither is claimed.
func requiredFilledMessage(p *Pass, typeID, input string, prop *jsonpos.Value) string {
	if how := executorFallback(p, typeID, input); how != "" {
		return fmt.Sprintf("%s requires input %q, yet %s: the node fills it itself. Hosts do not validate inputs, so chains that leave it out run, but lint and every host that validates call them broken: drop %q from required", typeID, input, how, input)
	}
	if prop == nil {
		return ""
	}
	how := chain.FillsItself(prop.Interface())
	if how == "" {
		return ""
	}
	if at := executorFailure(p, typeID, input); at != "" {
		return fmt.Sprintf("%s requires input %q and %s, but its executor (%s) fails without it: hosts do not apply schema defaults, so the schema promises a value nothing fills; remove the default (or the documented fallback) from %q's schema", typeID, input, how, at, input)
	}
	return fmt.Sprintf("%s requires input %q, yet %s: the two contradict each other, and hosts neither apply schema defaults nor validate inputs. If the node copes without it, drop %q from required; if it does not, remove the default", typeID, input, how, input)
}

// executorFact is what the pack's executor does when input of typeID is
// missing, and where ("" when the analysis has no such fact).
func executorFact(p *Pass, typeID, input string) (jsfacts.Fact, string) {
	node := packFacts(p).Node(typeID)
	if node == nil {
		return jsfacts.Fact{}, ""
	}
	f, ok := node.Input(input)
	if !ok {
		return jsfacts.Fact{}, ""
	}
	return f, atLine(p, f.At)
}

// executorFailure says where the pack's executor fails when input is
// missing ("" when it is not seen to, or cannot be followed).
func executorFailure(p *Pass, typeID, input string) string {
	if f, at := executorFact(p, typeID, input); at != "" && f.Kind == jsfacts.Failure {
		return at
	}
	return ""
}

// executorFallback says where the pack's executor puts a usable value in
// place of a missing input ("" when it does not, or cannot be followed).
func executorFallback(p *Pass, typeID, input string) string {
	f, at := executorFact(p, typeID, input)
	switch {
	case at == "" || f.Kind != jsfacts.Fallback:
		return ""
	case f.Value == "":
		return fmt.Sprintf("its executor (%s) builds a value of its own when it is missing", at)
	}
	return fmt.Sprintf("its executor (%s) puts %s in its place when it is missing", at, f.Value)
}
