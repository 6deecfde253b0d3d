package assist

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/lint"
	"github.com/wop-cli/wop/internal/schema"
	"github.com/wop-cli/wop/internal/spec"
)

// completeManifest offers what may be written at off of a pack.json: a
// member name the schema allows there, or a value: an enum value, a pack
// file, a typeId, an agentId, a license id.
func completeManifest(env Env, m *manifest, off int) []Item {
	c := m.locate(off)
	e, ok := editAt(m.doc.Text, c.Token, off)
	if !ok {
		return nil
	}
	if c.OnName {
		if c.Parent == nil || c.Parent.Kind != jsonpos.Object {
			return nil
		}
		member := func(name string) []schema.Sub { return m.subs(append(c.Path[:len(c.Path):len(c.Path)], name)) }
		return e.apply(propertyItems(m.subs(c.Path), c.Parent, c.Name, member))
	}
	if !c.Value || c.Token != nil && c.Token.Kind != jsonpos.String {
		return nil
	}
	return e.apply(m.valueItems(env, c.Pointer()))
}

// propertyItems lists the members the subschemas allow in an object, less
// those it has (but the one being typed). A member whose schema is a $ref
// is described by what member finds behind it.
func propertyItems(subs []schema.Sub, obj *jsonpos.Loose, typing string, member func(name string) []schema.Sub) []Item {
	var items []Item
	for _, s := range subs {
		props, _ := s.Schema["properties"].(map[string]any)
		for _, name := range sortedKeys(props) {
			if hasMember(obj, name) && name != typing || slices.ContainsFunc(items, func(it Item) bool { return it.Label == name }) {
				continue
			}
			p, _ := props[name].(map[string]any)
			desc, _ := p["description"].(string)
			types := typeNames(p["type"])
			if _, isRef := p["$ref"]; isRef {
				for _, sub := range member(name) {
					d, _ := sub.Schema["description"].(string)
					desc = cmp.Or(desc, d)
					types = appendNew(types, typeNames(sub.Schema["type"])...)
				}
			}
			items = append(items, Item{Label: name, Detail: strings.Join(types, " | "), Doc: desc, Insert: name, Kind: KindProperty})
		}
	}
	return items
}

// hasMember reports whether obj has a member called name (with or without
// a value yet).
func hasMember(obj *jsonpos.Loose, name string) bool {
	return slices.ContainsFunc(obj.Members, func(m jsonpos.LooseMember) bool { return m.Name.Str == name })
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// valueItems lists the values that may be written at path.
func (m *manifest) valueItems(env Env, path []string) []Item {
	switch {
	case len(path) == 1 && path[0] == "license":
		return licenseItems()
	case len(path) == 1 && path[0] == "kind":
		return kindItems() // every kind, not the one the current kind's schema allows
	case isNodeRole(path):
		return nodeRoleItems()
	case isChainTypeID(path):
		return m.typeIDItems(env, "")
	case isTool(path):
		return m.typeIDItems(env, "openwop:")
	case isAgentRef(path):
		return agentIDItems(env, m.root)
	}
	if ext, ok := fileRef(path); ok {
		return fileItems(m.packDir(env), ext)
	}
	var items []Item
	for _, s := range m.subs(path) {
		desc, _ := s.Schema["description"].(string)
		list, _ := s.Schema["enum"].([]any)
		if c, ok := s.Schema["const"]; ok {
			list = append(list, c)
		}
		for _, v := range list {
			if v, ok := v.(string); ok && !slices.ContainsFunc(items, func(it Item) bool { return it.Label == v }) {
				items = append(items, Item{Label: v, Insert: v, Doc: desc, Kind: KindValue})
			}
		}
	}
	return items
}

// nodeRoleItems lists the node roles lint knows.
func nodeRoleItems() []Item {
	var items []Item
	for _, r := range lint.NodeRoles() {
		items = append(items, Item{Label: r, Insert: r, Detail: "node role", Kind: KindValue})
	}
	return items
}

// kindItems lists the pack kinds.
func kindItems() []Item {
	var items []Item
	for _, k := range schema.Kinds() {
		items = append(items, Item{Label: k, Insert: k, Detail: "pack kind", Kind: KindValue})
	}
	return items
}

// commonLicenses are the licenses most packs choose, offered first in this
// order: the SPDX list alphabetically starts with AAL and Abstyles.
var commonLicenses = []string{"MIT", "Apache-2.0", "BSD-3-Clause", "BSD-2-Clause", "ISC", "MPL-2.0",
	"GPL-3.0-only", "GPL-3.0-or-later", "LGPL-3.0-only", "AGPL-3.0-only", "Unlicense", "CC0-1.0"}

// licenseItems lists the SPDX license ids: the common ones first, then the
// rest alphabetically; SortText keeps that order in an editor that sorts.
func licenseItems() []Item {
	items := make([]Item, 0, len(commonLicenses)+len(lint.LicenseIDs()))
	for i, id := range commonLicenses {
		items = append(items, Item{Label: id, Insert: id, Detail: "SPDX license (common)", Kind: KindValue, SortText: fmt.Sprintf("0%02d", i)})
	}
	for _, id := range lint.LicenseIDs() {
		if !slices.Contains(commonLicenses, id) {
			items = append(items, Item{Label: id, Insert: id, Detail: "SPDX license", Kind: KindValue, SortText: "1" + id})
		}
	}
	return items
}

// typeIDItems lists the node typeIds this pack and the catalog define,
// each written with prefix (a tool is "openwop:<typeId>"). In a v2 chain a
// typeId carries its exact version pin.
func (m *manifest) typeIDItems(env Env, prefix string) []Item {
	var items []Item
	seen := map[string]bool{}
	if nodes := m.root.Get("nodes"); nodes != nil {
		for _, n := range nodes.Items {
			if id := n.Get("typeId").Text(); id != "" && !seen[id] {
				seen[id] = true
				items = append(items, Item{Label: prefix + id, Insert: prefix + id, Detail: "this pack", Kind: KindTypeID})
			}
		}
	}
	if env.Catalog == nil {
		return items
	}
	for _, n := range env.Catalog.NodeTypes() {
		if seen[n.TypeID] {
			continue
		}
		insert := prefix + n.TypeID
		if prefix == "" && m.tree == spec.V2 && spec.ExactVersion(n.Version) {
			insert += "@" + n.Version
		}
		items = append(items, Item{Label: prefix + n.TypeID, Insert: insert, Kind: KindTypeID,
			Detail: n.Pack + "@" + n.PackVersion, Doc: roleDoc(n.Role)})
	}
	return items
}

func roleDoc(role string) string {
	if role == "" {
		return ""
	}
	return "role: " + role
}

// agentIDItems lists the agentIds this pack and the catalog define.
func agentIDItems(env Env, root *jsonpos.Loose) []Item {
	var items []Item
	seen := map[string]bool{}
	if agents := root.Get("agents"); agents != nil {
		for _, a := range agents.Items {
			if id := a.Get("agentId").Text(); id != "" && !seen[id] {
				seen[id] = true
				items = append(items, Item{Label: id, Insert: id, Detail: "this pack", Kind: KindAgentID})
			}
		}
	}
	if env.Catalog == nil {
		return items
	}
	for _, p := range env.Catalog.AllPacks() {
		for _, id := range p.AgentIDs {
			if !seen[id] {
				seen[id] = true
				items = append(items, Item{Label: id, Insert: id, Detail: p.Name + "@" + p.Version, Kind: KindAgentID})
			}
		}
	}
	return items
}

// edit is where a completion is written at the cursor, and what quoting
// it needs.
type edit struct {
	span        Span
	open, close string // quotes to write around the text
	typed       string // what is typed already, to filter by
}

// editAt returns where a completion at off goes, given the scalar token
// under the cursor (nil when none). ok is false when off is on a token but
// not where text may be completed (before a string's opening quote, after
// its closing one).
func editAt(src []byte, tok *jsonpos.Loose, off int) (edit, bool) {
	if tok == nil {
		return edit{span: Span{off, off}, open: `"`, close: `"`}, true
	}
	if tok.Kind == jsonpos.String && src[tok.Start] == '"' {
		if off <= tok.Start || tok.Closed && off >= tok.End {
			return edit{}, false
		}
		end := tok.End
		closeQuote := `"`
		if tok.Closed {
			end--
			closeQuote = ""
		}
		return edit{span: Span{tok.Start + 1, end}, close: closeQuote, typed: string(src[tok.Start+1 : off])}, true
	}
	return edit{span: Span{tok.Start, tok.End}, open: `"`, close: `"`, typed: string(src[tok.Start:off])}, true
}

// apply keeps the items that match what is typed and sets where each is
// written.
func (e edit) apply(items []Item) []Item {
	typed := strings.ToLower(e.typed)
	out := items[:0]
	for _, it := range items {
		if typed != "" && !strings.Contains(strings.ToLower(it.Label), typed) && !strings.Contains(strings.ToLower(it.Insert), typed) {
			continue
		}
		it.Replace = e.span
		it.Insert = e.open + escape(it.Insert) + e.close
		out = append(out, it)
	}
	return out
}

// escape writes s as the body of a JSON string.
func escape(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return r == '"' || r == '\\' || r < 0x20 }) {
		return s // ids, paths and enum values: nearly always
	}
	q := quote(s)
	return q[1 : len(q)-1]
}

// quote writes s as a JSON string.
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
