package catalog

import (
	"cmp"
	"errors"
	"strings"
	"sync"
)

// errNoFiles is a merged catalog's answer for a pack no source holds files of.
var errNoFiles = errors.New("the catalog holds no files of this pack")

// Merge returns one catalog of several sources (catalog: [a, b] in
// .wop.yaml, --catalog repeated, a host profile): a pack several sources
// hold is taken from the one with its highest version (the first of
// equals), and its schemas are read from that source. One source is
// returned as it is. The merged key names every source's state, so a change
// in any of them is a change of the catalog.
//
// The merge is lazy as its sources are: it reads their facts on the first
// question about them, so a lint whose result is cached (StateFor answers
// from the memo a lazy source keeps) reads no pack's facts, host profile or
// not.
func Merge(sources ...*Catalog) *Catalog {
	if len(sources) == 1 {
		return sources[0]
	}
	names := make([]string, len(sources))
	for i, c := range sources {
		names[i] = c.Source
	}
	m := newCatalog(strings.Join(names, ", "))
	for _, c := range sources {
		m.hosts = append(m.hosts, c.hosts...)
		m.Warnings = append(m.Warnings, c.Warnings...)
		m.Skipped += c.Skipped
		m.stateDir = cmp.Or(m.stateDir, c.stateDir) // the memo is named by the merged facts key
	}
	owner := map[string]*Catalog{} // pack name -> the source its files are read from
	m.lazy, m.lazyLen = sync.OnceFunc(func() { m.mergeFacts(sources, owner) }), -1
	m.fetchDoc = func(p *Pack, ref string) ([]byte, error) {
		m.ready()
		c := owner[p.Name]
		if c == nil || c.fetchDoc == nil {
			return nil, errNoFiles
		}
		return c.fetchDoc(p, ref)
	}
	m.listDocs = func(p *Pack) []string {
		m.ready()
		if c := owner[p.Name]; c != nil && c.listDocs != nil {
			return c.listDocs(p)
		}
		return nil
	}
	m.key = sync.OnceValue(func() string { return mergedKey(sources, (*Catalog).Key) })
	m.facts = sync.OnceValue(func() string { return mergedKey(sources, (*Catalog).FactsKey) })
	return m
}

// mergeFacts reads every source's facts into m, recording which source
// each kept pack came from.
func (m *Catalog) mergeFacts(sources []*Catalog, owner map[string]*Catalog) {
	for _, c := range sources {
		c.ready()                         // its Packs are read here
		byPack := map[string][]NodeType{} // one pass, not one sort of every node type per pack
		for _, n := range c.NodeTypes() { // sorted: a merge is the same every run
			byPack[n.Pack] = append(byPack[n.Pack], *n)
		}
		for _, p := range c.Packs {
			if m.add(p, byPack[p.Name]) {
				owner[p.Name] = c
			}
		}
	}
	m.sort()
}

// mergedKey joins the sources' keys; "" when one is unknown.
func mergedKey(sources []*Catalog, key func(*Catalog) string) string {
	keys := make([]string, len(sources))
	for i, c := range sources {
		if keys[i] = key(c); keys[i] == "" {
			return "" // one source's state unknown: the whole is
		}
	}
	return "merged(" + strings.Join(keys, ",") + ")"
}
