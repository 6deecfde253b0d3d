package assist

import (
	"path/filepath"
	"strings"

	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/spec"
	"github.com/wop-cli/wop/internal/tarball"
)

// defineInManifest answers go-to-definition on a pack.json value: a file
// ref opens its file, a chain node's typeId or a tool its node type (in
// this pack or the defining pack's pack.json), an agentId its agent.
func defineInManifest(env Env, m *manifest, off int) []Location {
	c := m.locate(off)
	if c.Token == nil || c.Token.Kind != jsonpos.String {
		return nil
	}
	path, text := c.Pointer(), c.Token.Str
	if isDependency(path) {
		return packAt(env, path[1])
	}
	if c.OnName {
		return nil
	}
	if _, ok := fileRef(path); ok {
		if p, ok := PackFile(m.packDir(env), text); ok {
			return []Location{{Path: p}}
		}
		return nil
	}
	switch {
	case isChainTypeID(path):
		if m.tree == spec.V2 {
			text, _, _ = spec.SplitPin(text)
		}
		return m.nodeTypeAt(env, text)
	case isTool(path):
		if id, ok := strings.CutPrefix(text, "openwop:"); ok {
			return m.nodeTypeAt(env, id)
		}
	case isAgentRef(path):
		return m.agentAt(env, text)
	}
	return nil
}

// nodeTypeAt finds where node type id is defined: a node of this pack, or
// of the catalog's defining pack.
func (m *manifest) nodeTypeAt(env Env, id string) []Location {
	if n := ownNode(m.root, id); n != nil {
		return []Location{{Path: m.doc.Path, Span: valueSpan(n.Get("typeId"), n)}}
	}
	if env.Catalog == nil {
		return nil
	}
	n, ok := env.Catalog.NodeType(id)
	if !ok {
		return nil
	}
	return definedIn(env, n.Pack, func(root *jsonpos.Loose) *jsonpos.Loose { return ownNode(root, id) }, "typeId")
}

// agentAt finds where agentId is defined: an agent of this pack, or of the
// catalog's defining pack.
func (m *manifest) agentAt(env Env, id string) []Location {
	if a := ownAgent(m.root, id); a != nil {
		return []Location{{Path: m.doc.Path, Span: valueSpan(a.Get("agentId"), a)}}
	}
	if env.Catalog == nil {
		return nil
	}
	p, ok := env.Catalog.AgentPack(id)
	if !ok {
		return nil
	}
	return definedIn(env, p, func(root *jsonpos.Loose) *jsonpos.Loose { return ownAgent(root, id) }, "agentId")
}

// definedIn reads the pack.json of the catalog's pack name and returns the
// span of the member field of the entry find picks.
func definedIn(env Env, name string, find func(*jsonpos.Loose) *jsonpos.Loose, field string) []Location {
	dir, ok := env.Catalog.PackDir(name)
	if !ok {
		return nil
	}
	p, err := filepath.Abs(filepath.Join(dir, "pack.json")) // a catalog opened by a relative path keeps it
	if err != nil {
		return nil
	}
	raw, ok := env.read(p, tarball.DefaultLimits.MaxManifest)
	if !ok {
		return nil
	}
	if n := find(jsonpos.ParseLoose(raw)); n != nil {
		return []Location{{Path: p, Span: valueSpan(n.Get(field), n)}}
	}
	return []Location{{Path: p}}
}

// packAt opens the pack.json of the catalog's pack name, at its name.
func packAt(env Env, name string) []Location {
	if env.Catalog == nil {
		return nil
	}
	return definedIn(env, name, func(root *jsonpos.Loose) *jsonpos.Loose { return root }, "name")
}

func ownAgent(root *jsonpos.Loose, id string) *jsonpos.Loose {
	agents := root.Get("agents")
	if agents == nil || agents.Kind != jsonpos.Array || id == "" {
		return nil
	}
	for _, a := range agents.Items {
		if a.Get("agentId").Text() == id {
			return a
		}
	}
	return nil
}

// valueSpan is v's span, or else whole's.
func valueSpan(v, whole *jsonpos.Loose) Span {
	if v == nil {
		v = whole
	}
	return Span{v.Start, v.End}
}

// manifestLinks lists the file refs of a pack.json whose files exist.
func manifestLinks(env Env, m *manifest) []Link {
	var links []Link
	dir := m.packDir(env)
	walkLoose(m.root, nil, func(path []string, s *jsonpos.Loose) {
		if _, ok := fileRef(path); !ok {
			return
		}
		if p, ok := PackFile(dir, s.Str); ok {
			links = append(links, Link{Span: stringBody(m.doc.Text, s), Target: p})
		}
	})
	return links
}

// stringBody is the span of a string token's text, inside its quotes.
func stringBody(src []byte, s *jsonpos.Loose) Span {
	start, end := s.Start, s.End
	if start < end && src[start] == '"' {
		start++
		if s.Closed {
			end--
		}
	}
	return Span{start, end}
}
