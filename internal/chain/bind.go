package chain

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/regex"
)

// bind says where each input of node n gets its value, and reports each
// required input nothing binds. It follows how a host feeds a node (the
// reference host's scheduler, openwop-app-install backend/typescript/src/
// executor/scheduler.ts buildNodeInputs): an edge to "node.port" sets that
// input, an edge without a port hands over the upstream node's whole output
// map, and a node no edge reaches receives the run's inputs, the chain's
// parameters. A required input is reported only when the schemas say
// nothing can carry it; where a schema is missing or open, it stays quiet.
func (a *analyzer) bind(n *Node) {
	in := a.inputSchema(n)
	fed := a.fedPorts(n.ID)
	isRequired := make(map[string]bool, len(in.required))
	for _, name := range in.required {
		isRequired[name] = true
	}
	for _, name := range inputNames(n, in, fed, isRequired) {
		required := isRequired[name]
		b := a.binding(n, in, fed, name, required)
		b.Input, b.Required = name, required
		n.Inputs = append(n.Inputs, b)
		if b.Source == SourceUnbound && required && in.ok {
			a.report(Finding{Rule: RuleInputUnbound, Pointer: n.Pointer, Node: n.ID,
				Message: fmt.Sprintf("node %q: %s requires input %q, which inputs does not set and no edge feeds (\"to\": \"%s.%s\")%s; the node fails on every run", n.ID, n.Type.TypeID, name, n.ID, name, b.Detail)})
		}
	}
}

// inputNames lists the inputs to bind: the schema's required ones, then
// every other input the schema declares, the node sets or an edge feeds.
func inputNames(n *Node, in schemaOf, fed map[string]int, isRequired map[string]bool) []string {
	var rest []string
	listed := map[string]bool{}
	add := func(name string) {
		if !isRequired[name] && !listed[name] {
			listed[name] = true
			rest = append(rest, name)
		}
	}
	for name := range in.props {
		add(name)
	}
	if v := n.Value.Get("inputs"); v != nil && v.Kind == jsonpos.Object {
		for _, m := range v.Members {
			add(m.Name)
		}
	}
	for name := range fed {
		add(name)
	}
	required := slices.Sorted(maps.Keys(isRequired))
	slices.Sort(rest)
	return append(required, rest...)
}

// binding finds the source of one input. Detail of an unbound one says why
// (for the finding's message), starting with "; " or empty.
func (a *analyzer) binding(n *Node, in schemaOf, fed map[string]int, name string, required bool) Binding {
	if i, ok := fed[name]; ok {
		e := a.d.Edges[i]
		return Binding{Source: SourceEdge, From: e.From, Port: e.FromPort, Pointer: e.Pointer}
	}
	if n.Value.Get("inputs").Get(name) != nil {
		return Binding{Source: SourceInputs, Pointer: n.Pointer + "/inputs/" + jsonpos.EscapeToken(name)}
	}
	if n.Value.Get("config").Get(name) != nil {
		return Binding{Source: SourceConfig, Pointer: n.Pointer + "/config/" + jsonpos.EscapeToken(name)}
	}
	if how := FillsItself(in.props[name]); how != "" {
		return Binding{Source: SourceDefault, Pointer: n.Pointer, Detail: how}
	}
	if required && n.Type != nil && a.o.Fills != nil && a.o.Fills(n.Type, name) {
		return Binding{Source: SourceExecutor, Pointer: n.Pointer, Detail: "the node type's executor fills it when it is absent"}
	}
	return a.wholeFeed(n, name)
}

// fedPorts maps the input ports edges feed on node id (the first segment
// of "node.port.sub") to the index of the first edge feeding each.
func (a *analyzer) fedPorts(id string) map[string]int {
	fed := map[string]int{}
	for _, i := range a.in[id] {
		if e := a.d.Edges[i]; e.ToPort != "" {
			port, _, _ := strings.Cut(e.ToPort, ".")
			if _, seen := fed[port]; !seen {
				fed[port] = i
			}
		}
	}
	return fed
}

// wholeFeed binds input name of node n from what feeds the node as a
// whole: the chain's parameters when no edge reaches it, or the output of
// each upstream node an edge without a port comes from.
func (a *analyzer) wholeFeed(n *Node, name string) Binding {
	var whole []Edge
	for _, i := range a.in[n.ID] {
		if e := a.d.Edges[i]; e.ToPort == "" {
			whole = append(whole, e)
		}
	}
	if len(a.in[n.ID]) == 0 {
		return a.paramsFeed(n, name)
	}
	var closedUpstreams []string
	var unsure *Binding
	for _, e := range whole {
		up := a.d.Node(e.From)
		if up == nil {
			if unsure == nil {
				unsure = &Binding{Source: SourceEdge, From: e.From, Pointer: e.Pointer, Unsure: true, Detail: "the edge names no node"}
			}
			continue
		}
		desc, carries, known := a.outputCarries(up, e.FromPort, name)
		switch {
		case known && carries:
			return Binding{Source: SourceEdge, From: e.From, Port: e.FromPort, Pointer: e.Pointer}
		case !known && unsure == nil:
			unsure = &Binding{Source: SourceEdge, From: e.From, Port: e.FromPort, Pointer: e.Pointer, Unsure: true, Detail: "its output may carry it; its schema is open or unknown"}
		case known:
			closedUpstreams = append(closedUpstreams, desc)
		}
	}
	if unsure != nil {
		return *unsure
	}
	b := Binding{Source: SourceUnbound, Pointer: n.Pointer}
	if len(closedUpstreams) > 0 {
		b.Detail = fmt.Sprintf("; the edge without a port hands it %s, which has no %q", strings.Join(closedUpstreams, " and "), name)
	}
	return b
}

// paramsFeed: a node no edge reaches receives the run's inputs, which the
// chain's parameters schema describes. Without parameters, or with open
// ones, any input may come in.
func (a *analyzer) paramsFeed(n *Node, name string) Binding {
	params := a.d.ParamsSchema
	if a.declared[name] {
		return Binding{Source: SourceParameter, Param: name, Pointer: a.d.ParamsPointer + "/properties/" + jsonpos.EscapeToken(name)}
	}
	if ap := params.Get("additionalProperties"); ap == nil || ap.Kind != jsonpos.Bool || ap.Bool {
		ptr := a.d.ParamsPointer
		if ptr == "" {
			ptr = n.Pointer
		}
		return Binding{Source: SourceParameter, Pointer: ptr, Unsure: true, Detail: "the chain's parameters are open or undeclared, so a run input may carry it"}
	}
	return Binding{Source: SourceUnbound, Pointer: n.Pointer,
		Detail: fmt.Sprintf("; no edge reaches the node, so it receives the chain's parameters, and they declare no %q", name)}
}

// outputCarries tells whether upstream node up's output (or its member
// port, for an edge from "up.port") can carry property r: known is false
// when its type, schema or the member's shape is unknown or open. The
// reference host hands over outputs.output rather than the map when the
// node has an "output" member, so such a schema is read at that member.
func (a *analyzer) outputCarries(up *Node, port, r string) (desc string, carries, known bool) {
	s := a.outputSchema(up)
	if !s.ok {
		return "", false, false
	}
	t := up.Type
	props, closed := s.props, s.closed
	desc = fmt.Sprintf("the output of %q (closed in %s@%s)", up.ID, t.Pack, t.PackVersion)
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
		desc = fmt.Sprintf("member %q of the output of %q (closed in %s@%s)", port, up.ID, t.Pack, t.PackVersion)
	}
	if !closed {
		// An open output map that declares r and requires it carries r on
		// every run, whatever else it may carry.
		_, declared := props[r]
		sure := port == "" && declared && slices.Contains(s.required, r)
		return desc, sure, sure
	}
	_, carries = props[r]
	return desc, carries, true
}

// FillsItself says how a node type's input schema shows the node fills
// input property prop itself: a default, or a description documenting a
// fallback ("" when it shows neither). node-input-required-filled asks it
// too, of the node type's own pack.
func FillsItself(prop any) string {
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
// without the property. The bare word "fallback" does not: a description
// names fallbacks of other things ("the fallback model reads it"); "falls
// back to" or "used as a fallback when omitted" says it of the property.
var documentedFallback = regex.Lazy(`(?i)\b(defaults? to|falls? back (to|on)|optional|not required|(if|when) (omitted|absent|missing|not (set|given|provided|supplied)))\b`)
