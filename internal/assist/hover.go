package assist

import (
	"fmt"
	"slices"
	"strings"

	"github.com/wop-cli/wop/internal/catalog"
	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/lint"
	"github.com/wop-cli/wop/internal/schema"
	"github.com/wop-cli/wop/internal/spec"
)

// hoverManifest describes the member name or value at off: what the
// catalog knows of a typeId or agentId it names, then the spec schema's
// description of the member and its allowed values.
func hoverManifest(env Env, m *manifest, off int) (string, Span, bool) {
	c := m.locate(off)
	if c.Token == nil {
		return "", Span{}, false
	}
	path := c.Pointer()
	var parts []string
	if isDependency(path) {
		parts = append(parts, dependencyFacts(env, path[1]))
	} else if f := m.catalogFacts(env, path, c.Token.Str); f != "" && !c.OnName {
		parts = append(parts, f)
	}
	if f := m.chainNodeFacts(env, path); f != "" && !c.OnName {
		parts = append(parts, f)
	}
	subs, what := m.subs(path), path
	if c.OnName && len(subs) > 0 && !described(subs) && len(path) > 0 {
		// A name of a map (dependencies): what the map means says more
		// than the type of its values.
		what = path[:len(path)-1]
		subs = m.subs(what)
	}
	if d := describe(subs, label(what)); d != "" {
		if isNodeRole(path) {
			d += "\n\nRoles lint knows (role-unknown): " + strings.Join(lint.NodeRoles(), ", ")
		}
		parts = append(parts, d)
	}
	if len(parts) == 0 {
		return "", Span{}, false
	}
	return strings.Join(parts, "\n\n---\n\n"), Span{c.Token.Start, c.Token.End}, true
}

// described reports whether one of subs has a description.
func described(subs []schema.Sub) bool {
	for _, s := range subs {
		if _, ok := s.Schema["description"].(string); ok {
			return true
		}
	}
	return false
}

// label names the member at path for a heading: "modelClass", "toolAllowlist[0]".
func label(path []string) string {
	if len(path) == 0 {
		return "pack.json"
	}
	last := path[len(path)-1]
	if isIndex(last) && len(path) > 1 {
		return path[len(path)-2] + "[" + last + "]"
	}
	return last
}

// describe writes what the subschemas say of one value: its description
// (the first one given), its type and its allowed values.
func describe(subs []schema.Sub, name string) string {
	var desc, title string
	var types, values []string
	for _, s := range subs {
		if d, ok := s.Schema["description"].(string); ok && desc == "" {
			desc = d
		}
		if t, ok := s.Schema["title"].(string); ok && title == "" {
			title = t
		}
		types = appendNew(types, typeNames(s.Schema["type"])...)
		for _, v := range allowed(s.Schema) {
			values = appendNew(values, "`"+v+"`")
		}
	}
	if desc == "" && title == "" && len(values) == 0 && len(types) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**%s**", name)
	if len(types) > 0 {
		fmt.Fprintf(&b, " (%s)", strings.Join(types, " | "))
	}
	if title != "" && title != name {
		fmt.Fprintf(&b, ": %s", title)
	}
	if desc != "" {
		fmt.Fprintf(&b, "\n\n%s", desc)
	}
	if len(values) > 0 {
		fmt.Fprintf(&b, "\n\nAllowed values: %s", strings.Join(values, ", "))
	}
	return b.String()
}

func typeNames(t any) []string {
	switch t := t.(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, x := range t {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// allowed lists a subschema's enum and const values, as JSON.
func allowed(s map[string]any) []string {
	var out []string
	list, _ := s["enum"].([]any)
	if c, ok := s["const"]; ok {
		list = append(list, c)
	}
	for _, v := range list {
		switch v := v.(type) {
		case string:
			out = append(out, quote(v))
		case nil:
			out = append(out, "null")
		default:
			out = append(out, fmt.Sprint(v))
		}
	}
	return out
}

func appendNew(list []string, vs ...string) []string {
	for _, v := range vs {
		if !slices.Contains(list, v) {
			list = append(list, v)
		}
	}
	return list
}

// catalogFacts says what the catalog (and this pack) knows of the typeId,
// tool or agentId written at path.
func (m *manifest) catalogFacts(env Env, path []string, text string) string {
	switch {
	case isChainTypeID(path):
		id := text
		if m.tree == spec.V2 {
			id, _, _ = spec.SplitPin(text)
		}
		return m.typeFacts(env, id)
	case isTool(path):
		if id, ok := strings.CutPrefix(text, "openwop:"); ok {
			return m.typeFacts(env, id)
		}
	case isAgentDecl(path) || isAgentRef(path):
		return agentFacts(env, path, text)
	case isNodeDecl(path) && env.Catalog != nil:
		if n, ok := env.Catalog.NodeType(text); ok && n.Pack != m.root.Get("name").Text() {
			return fmt.Sprintf("**%s**: the catalog's `%s@%s` defines this typeId too", text, n.Pack, n.PackVersion)
		}
	}
	return ""
}

// dependencyFacts says what the catalog knows of the pack name a
// dependency names.
func dependencyFacts(env Env, name string) string {
	if env.Catalog == nil {
		return fmt.Sprintf("**%s**: no catalog is known, so whether the pack exists cannot be told", name)
	}
	for _, p := range env.Catalog.Packs {
		if p.Name == name {
			return fmt.Sprintf("**%s**: the catalog's latest is `%s` (%d node types, %d agents)", name, p.Version, len(p.TypeIDs), len(p.AgentIDs))
		}
	}
	return fmt.Sprintf("**%s**: no pack of this name in the catalog (%s)", name, env.Catalog.Source)
}

// typeFacts describes node type id: where it is defined and what it
// declares.
func (m *manifest) typeFacts(env Env, id string) string {
	if own := ownNode(m.root, id); own != nil {
		return fmt.Sprintf("**%s**: a node type of this pack (role %s)", id, orNone(own.Get("role").Text()))
	}
	if env.Catalog == nil {
		return fmt.Sprintf("**%s**: no catalog is known, so where it is defined cannot be told", id)
	}
	n, ok := env.Catalog.NodeType(id)
	if !ok {
		return fmt.Sprintf("**%s**: no pack in the catalog (%s) defines this typeId", id, env.Catalog.Source)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**%s**", id)
	if n.Version != "" {
		fmt.Fprintf(&b, " %s", n.Version)
	}
	fmt.Fprintf(&b, "\n\nDefined by `%s@%s`", n.Pack, n.PackVersion)
	if n.Role != "" {
		fmt.Fprintf(&b, "\n\nRole: `%s`", n.Role)
	}
	if len(n.Capabilities) > 0 {
		fmt.Fprintf(&b, "\n\nCapabilities: %s", strings.Join(n.Capabilities, ", "))
	}
	if n.ConfigSchema != "" {
		fmt.Fprintf(&b, "\n\nConfig schema: `%s`%s", n.ConfigSchema, configMembers(env.Catalog, n))
	}
	for _, s := range []struct{ what, ref string }{{"Input", n.InputSchema}, {"Output", n.OutputSchema}} {
		if s.ref != "" {
			fmt.Fprintf(&b, "\n\n%s schema: `%s`", s.what, s.ref)
		}
	}
	return b.String()
}

// configMembers lists the members a node type's config schema declares,
// when the catalog holds the schema.
func configMembers(c *catalog.Catalog, n *catalog.NodeType) string {
	url, ok := c.SchemaURL(n, n.ConfigSchema)
	if !ok {
		return ""
	}
	props, required, _, ok := c.Properties(url)
	if !ok || len(props) == 0 {
		return ""
	}
	names := make([]string, 0, len(props))
	for name := range props {
		if slices.Contains(required, name) {
			name += " (required)"
		}
		names = append(names, "`"+name+"`")
	}
	slices.Sort(names)
	return " with " + strings.Join(names, ", ")
}

// agentFacts says which pack of the catalog defines agentId.
func agentFacts(env Env, path []string, id string) string {
	if env.Catalog == nil {
		return ""
	}
	p, ok := env.Catalog.AgentPack(id)
	switch {
	case ok && isAgentDecl(path):
		return fmt.Sprintf("**%s**: the catalog's `%s@%s` defines this agentId too", id, p, packVersion(env.Catalog, p))
	case ok:
		return fmt.Sprintf("**%s**: defined by `%s@%s`", id, p, packVersion(env.Catalog, p))
	case isAgentRef(path):
		return fmt.Sprintf("**%s**: no pack in the catalog (%s) defines this agentId", id, env.Catalog.Source)
	}
	return ""
}

func packVersion(c *catalog.Catalog, name string) string {
	for _, p := range c.Packs {
		if p.Name == name {
			return p.Version
		}
	}
	return "?"
}

// ownNode returns the node of this manifest's nodes[] with typeId id.
func ownNode(root *jsonpos.Loose, id string) *jsonpos.Loose {
	nodes := root.Get("nodes")
	if nodes == nil || nodes.Kind != jsonpos.Array {
		return nil
	}
	for _, n := range nodes.Items {
		if n.Get("typeId").Text() == id && id != "" {
			return n
		}
	}
	return nil
}

func orNone(s string) string {
	if s == "" {
		return "not declared"
	}
	return "`" + s + "`"
}
