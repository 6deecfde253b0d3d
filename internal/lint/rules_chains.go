package lint

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/wop-cli/wop/internal/catalog"
	"github.com/wop-cli/wop/internal/chain"
	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/pack"
)

// eachDAGNode calls fn for every node of every DAG the chain analysis
// found, with the catalog's node type (nil when unknown).
func eachDAGNode(p *Pass, fn func(d *chain.DAG, n *chain.Node)) {
	for _, d := range chains(p).DAGs {
		for i := range d.Nodes {
			fn(d, &d.Nodes[i])
		}
	}
}

func checkChainConfigInvalid(p *Pass) {
	eachDAGNode(p, func(d *chain.DAG, n *chain.Node) {
		t := n.Type
		if t == nil {
			return
		}
		url, ok := p.Catalog.SchemaURL(t, t.ConfigSchema)
		if !ok {
			return
		}
		cfg := n.Value.Get("config")
		if cfg == nil {
			cfg = &jsonpos.Value{Kind: jsonpos.Object}
		}
		instance, templated := substituteParams(cfg, d.ParamsSchema)
		problems, err := p.Catalog.Validate(url, instance)
		if err != nil {
			return // the defining pack's lint reports a schema that does not compile
		}
		for _, pr := range problems {
			if templated.covers(pr.Pointer) && !pr.OnName && pr.Keyword != "type" {
				continue // a value the author passes: only its declared type is known
			}
			at := n.Pointer + "/config" + pr.Pointer
			if n.Value.Get("config") == nil {
				at = n.Pointer
			}
			msg := fmt.Sprintf("node %q: config does not fit %s's config schema (%s@%s): %s", n.ID, t.TypeID, t.Pack, t.PackVersion, pr.Message)
			if pr.OnName && pr.Meant == "" && pr.Keyword == "additionalProperties" {
				// The registry's own chains set keys their node honours while
				// its schema lags (modelClass on core.ai.chatCompletion): which
				// side is wrong is not in the manifest, so name both fixes.
				msg += fmt.Sprintf("; if the node does not read it, delete it from the chain; if it does, its schema lags the executor: declare it in %s's config schema (%s)", t.TypeID, t.Pack)
			}
			p.Suggest("pack.json", p.Manifest, at, pr.OnName && pr.Meant != "" && at != n.Pointer, msg, pr.Meant, pr.Sure)
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
			m := chain.ParamTemplate().FindStringSubmatchIndex(v.Str)
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

// neverReads says "; the node never reads it" when the analysis of the
// node type's executor shows the implementing function and that it never
// reads input key, by name or dynamically; "" when it cannot tell (no
// executor to follow, a stub) or the node may read it (the chat node turns
// any string input into its user message).
func neverReads(p *Pass, t *catalog.NodeType, key string) string {
	node := typeFacts(p.executors(), p, p.Catalog, t)
	if node == nil || node.Reads(key) {
		return ""
	}
	return "; its executor never reads it"
}

func checkChainKeyUndeclared(p *Pass) {
	eachDAGNode(p, func(_ *chain.DAG, n *chain.Node) {
		t := n.Type
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
			v := n.Value.Get(part.member)
			if v == nil || v.Kind != jsonpos.Object {
				continue
			}
			for _, m := range v.Members {
				if _, declared := props[m.Name]; declared {
					continue
				}
				at := n.Pointer + "/" + part.member + "/" + jsonpos.EscapeToken(m.Name)
				msg := fmt.Sprintf("node %q: %s key %q is not declared by %s's %s schema (%s@%s), which declares %s", n.ID, part.member, m.Name, t.TypeID, part.schema, t.Pack, t.PackVersion, chain.KeyList(props))
				if part.member == "inputs" {
					msg += neverReads(p, t, m.Name)
				}
				if closed {
					p.reportAt(p.rule.Severity.Raise(), pack.ManifestName, p.Manifest, at, true, msg+" and the schema refuses it") // at the key, as the warning is
					continue
				}
				p.ReportNamef(at, "%s", msg)
			}
		}
	})
}
