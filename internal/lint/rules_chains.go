package lint

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/wop-cli/wop/internal/catalog"
	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/regex"
)

func eachDAGNode(p *Pass, fn func(d *dag, n dagNode)) {
	for _, d := range dags(p) {
		for _, n := range d.nodes {
			fn(d, n)
		}
	}
}

func checkChainTypeIDUnresolved(p *Pass) {
	if p.Catalog == nil {
		return // without a catalog wop cannot know what other packs define
	}
	own := nodeTypeIDs(p)
	eachDAGNode(p, func(_ *dag, n dagNode) {
		if n.typeID == "" || own[n.typeID] || coreReserved().MatchString(n.typeID) || strings.HasPrefix(n.typeID, "local.") || p.Catalog.HasType(n.typeID) {
			return
		}
		p.Reportf(n.ptr+"/typeId", "node %q: no pack in the catalog defines typeId %q and it is not a reserved core primitive; hosts refuse the expansion (chain_unresolvable_typeid): use a published typeId or publish the node", n.id, n.typeID)
	})
}

func checkChainParamUndeclared(p *Pass) {
	for _, d := range dags(p) {
		declared := d.params.Get("properties")
		for _, n := range d.nodes {
			walkStrings(n.v, n.ptr, func(ptr, s string) {
				for _, m := range paramTemplate().FindAllStringSubmatch(s, -1) {
					if declared.Get(m[1]) == nil {
						p.Reportf(ptr, "node %q uses {{params.%s}} but the chain declares no parameter %q; hosts substitute nothing: declare it under parameters.properties or fix the name", n.id, m[1], m[1])
					}
				}
			})
		}
	}
}

// walkStrings calls fn for every string value below v.
func walkStrings(v *jsonpos.Value, ptr string, fn func(ptr, s string)) {
	switch v.Kind {
	case jsonpos.String:
		fn(ptr, v.Str)
	case jsonpos.Object:
		for _, m := range v.Members {
			walkStrings(m.Value, ptr+"/"+jsonpos.EscapeToken(m.Name), fn)
		}
	case jsonpos.Array:
		for i, it := range v.Items {
			walkStrings(it, fmt.Sprintf("%s/%d", ptr, i), fn)
		}
	}
}

func checkChainConfigInvalid(p *Pass) {
	eachDAGNode(p, func(d *dag, n dagNode) {
		t := nodeType(p, n)
		if t == nil {
			return
		}
		url, ok := p.Catalog.SchemaURL(t, t.ConfigSchema)
		if !ok {
			return
		}
		cfg := n.v.Get("config")
		if cfg == nil {
			cfg = &jsonpos.Value{Kind: jsonpos.Object}
		}
		instance, templated := substituteParams(cfg, d.params)
		problems, err := p.Catalog.Validate(url, instance)
		if err != nil {
			return // the defining pack's lint reports a schema that does not compile
		}
		for _, pr := range problems {
			if templated.covers(pr.Pointer) && !pr.OnName && pr.Keyword != "type" {
				continue // a value the author passes: only its declared type is known
			}
			at := n.ptr + "/config" + pr.Pointer
			if n.v.Get("config") == nil {
				at = n.ptr
			}
			msg := fmt.Sprintf("node %q: config does not fit %s's config schema (%s@%s): %s", n.id, t.TypeID, t.Pack, t.PackVersion, pr.Message)
			p.Suggest("pack.json", p.Manifest, at, pr.OnName && pr.Meant != "" && at != n.ptr, msg, pr.Meant, pr.Sure)
		}
	})
}

// templatedPointers are config pointers whose value came from a parameter
// with no default: what the author will pass is unknown beyond its declared
// type, so only type problems there are reported.
type templatedPointers []string

func (t templatedPointers) covers(ptr string) bool {
	return slices.ContainsFunc(t, func(at string) bool { return ptr == at || strings.HasPrefix(ptr, at+"/") })
}

// substituteParams returns config as a plain value with each whole-string
// {{params.x}} replaced by x's default (so a template is checked where the
// declared parameter fits), and the pointers it could not resolve.
func substituteParams(cfg, params *jsonpos.Value) (any, templatedPointers) {
	var unknown templatedPointers
	var conv func(v *jsonpos.Value, ptr string) any
	conv = func(v *jsonpos.Value, ptr string) any {
		switch v.Kind {
		case jsonpos.String:
			m := paramTemplate().FindStringSubmatchIndex(v.Str)
			if m == nil {
				return v.Str
			}
			if m[0] != 0 || m[1] != len(v.Str) {
				unknown = append(unknown, ptr) // text around a template: its final form is unknown
				return v.Str
			}
			decl := params.Get("properties").Get(v.Str[m[2]:m[3]])
			if def := decl.Get("default"); def != nil {
				return def.Interface()
			}
			unknown = append(unknown, ptr)
			return sampleOf(decl.Get("type").String(), v.Str)
		case jsonpos.Object:
			out := make(map[string]any, len(v.Members))
			for _, m := range v.Members {
				out[m.Name] = conv(m.Value, ptr+"/"+jsonpos.EscapeToken(m.Name))
			}
			return out
		case jsonpos.Array:
			out := make([]any, len(v.Items))
			for i, it := range v.Items {
				out[i] = conv(it, fmt.Sprintf("%s/%d", ptr, i))
			}
			return out
		}
		return v.Interface()
	}
	return conv(cfg, ""), unknown
}

// sampleOf stands in for a parameter of a declared JSON type, so that a
// template passing a string where a number is needed still fails on type.
func sampleOf(typ, template string) any {
	switch typ {
	case "integer", "number":
		return json.Number("0")
	case "boolean":
		return false
	case "array":
		return []any{}
	case "object":
		return map[string]any{}
	case "null":
		return nil
	}
	return template
}

func checkChainKeyUndeclared(p *Pass) {
	eachDAGNode(p, func(_ *dag, n dagNode) {
		t := nodeType(p, n)
		if t == nil {
			return
		}
		for _, part := range []struct{ member, schema, ref string }{{"inputs", "input", t.InputSchema}, {"config", "config", t.ConfigSchema}} {
			url, ok := p.Catalog.SchemaURL(t, part.ref)
			if !ok {
				continue
			}
			props, _, closed, ok := p.Catalog.Properties(url)
			if !ok || props == nil || part.member == "config" && closed {
				continue // a closed config schema: chain-config-invalid says it
			}
			v := n.v.Get(part.member)
			if v == nil || v.Kind != jsonpos.Object {
				continue
			}
			for _, m := range v.Members {
				if _, declared := props[m.Name]; declared {
					continue
				}
				at := n.ptr + "/" + part.member + "/" + jsonpos.EscapeToken(m.Name)
				msg := fmt.Sprintf("node %q: %s key %q is not declared by %s's %s schema (%s@%s), which declares %s; the node never reads it", n.id, part.member, m.Name, t.TypeID, part.schema, t.Pack, t.PackVersion, keyList(props))
				if closed {
					p.ReportSeverity(p.rule.Severity.Raise(), at, "%s", msg+" and the schema refuses it")
					continue
				}
				p.ReportNamef(at, "%s", msg)
			}
		}
	})
}

func keyList(props map[string]any) string {
	keys := make([]string, 0, len(props))
	for k := range props {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if len(keys) == 0 {
		return "no keys"
	}
	if len(keys) > 8 {
		keys = append(keys[:8], "...")
	}
	return strings.Join(keys, ", ")
}

// checkChainInputUnbound follows how a host feeds a node (the reference
// host's scheduler, openwop-app-install backend/typescript/src/executor/
// scheduler.ts buildNodeInputs): an edge to "node.port" sets that input, an
// edge without a port hands over the upstream node's whole output map, and a
// node no edge reaches receives the run's inputs, the chain's parameters. A
// required input is reported only when the schemas say nothing can carry
// it; where a schema is missing or open, wop cannot tell and stays quiet.
func checkChainInputUnbound(p *Pass) {
	fills := executorFills{}
	for _, d := range dags(p) {
		for _, n := range d.nodes {
			t := nodeType(p, n)
			if t == nil {
				continue
			}
			url, ok := p.Catalog.SchemaURL(t, t.InputSchema)
			if !ok {
				continue
			}
			props, required, _, _ := p.Catalog.Properties(url)
			fed := d.fedPorts(n.id)
			for _, r := range required {
				if n.v.Get("inputs").Get(r) != nil || n.v.Get("config").Get(r) != nil || fed[r] {
					continue
				}
				if fillsItself(props[r]) != "" || fills.fills(p, t, r) {
					continue // node-input-required-filled says it, once, on the node's pack
				}
				why, unbound := d.wholeFeed(p, n, r)
				if !unbound {
					continue
				}
				p.Reportf(n.ptr, "node %q: %s requires input %q, which inputs does not set and no edge feeds (\"to\": \"%s.%s\")%s; the node fails on every run", n.id, t.TypeID, r, n.id, r, why)
			}
		}
	}
}

// executorFills reads the executors of the catalog's packs, each once per
// lint of a pack, to learn which required inputs a node type fills itself.
type executorFills map[string]*executor

// fills reports whether node type t's own executor copes with input r
// being absent (a fallback, a default, a presence check): a chain that
// leaves r out runs, so the contradiction between the schema and the
// executor is node-input-required-filled's, on the node type's pack.
func (f executorFills) fills(p *Pass, t *catalog.NodeType, r string) bool {
	x, ok := f[t.Pack]
	if !ok {
		x = parseExecutor(p.Catalog.RuntimeSource(t))
		f[t.Pack] = x
	}
	return x.toleratesMissing(t.TypeID, r) != ""
}

// fedPorts returns the input ports edges feed on node id (the first
// segment of "node.port.sub").
func (d *dag) fedPorts(id string) map[string]bool {
	fed := map[string]bool{}
	for _, e := range d.edges {
		if e.toNode == id && e.toPort != "" {
			port, _, _ := strings.Cut(e.toPort, ".")
			fed[port] = true
		}
	}
	return fed
}

// wholeFeed tells whether input r of node n is left unbound by what feeds
// the node as a whole: the chain's parameters when no edge reaches it, or
// the output of each upstream node an edge without a port comes from. It
// returns why r stays unbound (for the message), and unbound false when r
// may be bound or wop cannot tell.
func (d *dag) wholeFeed(p *Pass, n dagNode, r string) (why string, unbound bool) {
	var whole []dagEdge
	incoming := false
	for _, e := range d.edges {
		if e.toNode != n.id {
			continue
		}
		incoming = true
		if e.toPort == "" {
			whole = append(whole, e)
		}
	}
	if !incoming {
		return paramsFeed(d.params, r)
	}
	var closedUpstreams []string
	for _, e := range whole {
		up := d.node(e.fromNode)
		if up == nil {
			return "", false // chain-edge-dangling says it
		}
		desc, carries, known := outputCarries(p, *up, e.fromPort, r)
		if !known || carries {
			return "", false
		}
		closedUpstreams = append(closedUpstreams, desc)
	}
	if len(closedUpstreams) == 0 {
		return "", true
	}
	return fmt.Sprintf("; the edge without a port hands it %s, which has no %q", strings.Join(closedUpstreams, " and "), r), true
}

// paramsFeed: a node no edge reaches receives the run's inputs, which the
// chain's parameters schema describes. Without parameters, or with open
// ones, any input may come in.
func paramsFeed(params *jsonpos.Value, r string) (string, bool) {
	if ap := params.Get("additionalProperties"); ap == nil || ap.Kind != jsonpos.Bool || ap.Bool {
		return "", false
	}
	if params.Get("properties").Get(r) != nil {
		return "", false
	}
	return fmt.Sprintf("; no edge reaches the node, so it receives the chain's parameters, and they declare no %q", r), true
}

// outputCarries tells whether upstream node up's output (or its member
// port, for an edge from "up.port") can carry property r: known is false
// when its type, schema or the member's shape is unknown or open. The
// reference host hands over outputs.output rather than the map when the
// node has an "output" member, so such a schema is read at that member.
func outputCarries(p *Pass, up dagNode, port, r string) (desc string, carries, known bool) {
	t := nodeType(p, up)
	if t == nil {
		return "", false, false
	}
	url, ok := p.Catalog.SchemaURL(t, t.OutputSchema)
	if !ok {
		return "", false, false
	}
	props, _, closed, ok := p.Catalog.Properties(url)
	if !ok {
		return "", false, false
	}
	desc = fmt.Sprintf("the output of %q (closed in %s@%s)", up.id, t.Pack, t.PackVersion)
	if port == "" && props["output"] != nil {
		port = "output"
	}
	if port != "" {
		member, _ := props[port].(map[string]any)
		if member == nil {
			return "", false, false
		}
		props, _ = member["properties"].(map[string]any)
		closed = member["additionalProperties"] == false && member["$ref"] == nil
		if props == nil {
			return "", false, false
		}
		desc = fmt.Sprintf("member %q of the output of %q (closed in %s@%s)", port, up.id, t.Pack, t.PackVersion)
	}
	if !closed {
		return "", false, false
	}
	_, carries = props[r]
	return desc, carries, true
}

// fillsItself says how a node type's input schema shows the node fills
// input property prop itself: a default, or a description documenting a
// fallback ("" when it shows neither).
func fillsItself(prop any) string {
	m, _ := prop.(map[string]any)
	if m == nil {
		return ""
	}
	if _, ok := m["default"]; ok {
		return "its schema gives it a default"
	}
	desc, _ := m["description"].(string)
	if f := documentedFallback().FindString(desc); f != "" {
		return fmt.Sprintf("its description documents a fallback (%q)", f)
	}
	return ""
}

// documentedFallback matches a property description saying the node copes
// without the property.
var documentedFallback = regex.Lazy(`(?i)\b(defaults? to|falls? back|fallback|optional|not required|(if|when) (omitted|absent|missing|not (set|given|provided|supplied)))\b`)

func checkChainEdgeDangling(p *Pass) {
	for _, d := range dags(p) {
		for _, e := range d.edges {
			for _, end := range []struct{ member, node, port string }{{"from", e.fromNode, e.fromPort}, {"to", e.toNode, e.toPort}} {
				n := d.node(end.node)
				if n == nil {
					p.Reportf(e.ptr+"/"+end.member, "edge %s %q names no node of this DAG (nodes: %s); fix the id", end.member, end.node, nodeIDs(d))
					continue
				}
				checkEdgePort(p, e.ptr+"/"+end.member, *n, end.member, end.port)
			}
		}
	}
}

// checkEdgePort reports a port the node type's closed input or output schema
// does not declare.
func checkEdgePort(p *Pass, ptr string, n dagNode, member, port string) {
	t := nodeType(p, n)
	if t == nil || port == "" {
		return
	}
	ref, kind := t.OutputSchema, "output"
	if member == "to" {
		ref, kind = t.InputSchema, "input"
	}
	url, ok := p.Catalog.SchemaURL(t, ref)
	if !ok {
		return
	}
	props, _, closed, ok := p.Catalog.Properties(url)
	if !ok || !closed {
		return
	}
	if _, declared := props[strings.SplitN(port, ".", 2)[0]]; !declared {
		p.Reportf(ptr, "edge %s port %q: %s's %s schema declares no %q (it has %s)", member, port, t.TypeID, kind, port, keyList(props))
	}
}

func nodeIDs(d *dag) string {
	ids := make([]string, 0, len(d.nodes))
	for _, n := range d.nodes {
		ids = append(ids, n.id)
	}
	out, _ := json.Marshal(ids)
	return string(out)
}

func checkChainCycle(p *Pass) {
	for _, d := range dags(p) {
		next := map[string][]dagEdge{}
		for _, e := range d.edges {
			next[e.fromNode] = append(next[e.fromNode], e)
		}
		state := map[string]int{} // 0 unseen, 1 on the path, 2 done
		var visit func(id string) bool
		visit = func(id string) bool {
			state[id] = 1
			for _, e := range next[id] {
				switch state[e.toNode] {
				case 1:
					p.Reportf(e.ptr, "edge %s -> %s closes a cycle; a DAG runs each node once: remove the edge or use a loop node", e.fromNode, e.toNode)
					return true
				case 0:
					if visit(e.toNode) {
						return true
					}
				}
			}
			state[id] = 2
			return false
		}
		for _, n := range d.nodes {
			if state[n.id] == 0 && visit(n.id) {
				break // one cycle per DAG: fixing it may fix the rest
			}
		}
	}
}

func checkChainNodeUnreachable(p *Pass) {
	for _, d := range dags(p) {
		if len(d.nodes) < 2 {
			continue
		}
		linked := map[string]bool{}
		for _, e := range d.edges {
			linked[e.fromNode], linked[e.toNode] = true, true
		}
		for _, n := range d.nodes {
			if !linked[n.id] {
				p.Reportf(n.ptr, "node %q has no edge: nothing runs after it and nothing feeds it, so the chain's other nodes never see its output; connect it or delete it", n.id)
			}
		}
	}
}

// checkChainNodeTitleForeign reports a node title that is another chain's
// label and not its own chain's: the trace of a scripted edit that copied
// one chain's notify node into another, so its notifications announce the
// wrong workflow. Titles are the "title" members of a node's inputs and
// config.
func checkChainNodeTitleForeign(p *Pass) {
	labels := map[string]string{} // label -> chainId
	eachObject(p.Root().Get("chains"), "/chains", func(_ string, c *jsonpos.Value) {
		if l := strings.TrimSpace(c.Get("label").String()); l != "" {
			if _, dup := labels[l]; !dup {
				labels[l] = c.Get("chainId").String()
			}
		}
	})
	if len(labels) < 2 {
		return
	}
	eachObject(p.Root().Get("chains"), "/chains", func(ptr string, c *jsonpos.Value) {
		own := strings.TrimSpace(c.Get("label").String())
		eachObject(c.Get("dag").Get("nodes"), ptr+"/dag/nodes", func(np string, n *jsonpos.Value) {
			for _, member := range []string{"inputs", "config"} {
				title := n.Get(member).Get("title")
				if title == nil || title.Kind != jsonpos.String {
					continue
				}
				t := strings.TrimSpace(title.Str)
				if other, ok := labels[t]; ok && t != own {
					p.Reportf(np+"/"+member+"/title", "node %q carries the title %q, the label of chain %q, not of its own chain %q (%q): a copy left by an edit, so what the node shows names the wrong workflow; give it this chain's title", n.Get("id").String(), t, other, c.Get("chainId").String(), own)
				}
			}
		})
	})
}
