package lint

import (
	"path"

	"github.com/wop-cli/wop/internal/catalog"
	"github.com/wop-cli/wop/internal/jsfacts"
)

// executors holds the pass's analyses of JavaScript executors
// (internal/jsfacts), each made once: the pack's own, and those of the
// catalog's packs the chain rules ask about. Every rule, and the chain
// analysis, reads the same facts.
type executors struct {
	own    *jsfacts.Facts
	byPack map[string]*jsfacts.Facts
}

// executorSource reads the pack's JavaScript runtime entry (nil when the
// pack has none, or it is not in the pack) and its path.
func executorSource(p *Pass) ([]byte, string) {
	if p.Root().Get("runtime").Get("language").String() != "javascript" {
		return nil, ""
	}
	name := runtimeEntry(p)
	return packModule(p, name), name
}

// runtimeEntry is the runtime entry the manifest names, as a pack path.
func runtimeEntry(p *Pass) string {
	return path.Clean(p.Root().Get("runtime").Get("entry").String())
}

// packModule reads a file of the pack for the analysis (nil when it is not
// a file in the pack): the entry, and the modules it imports.
func packModule(p *Pass, name string) []byte {
	if t, _ := resolve(p, name); t != targetFile {
		return nil
	}
	src, err := p.ReadFile(name)
	if err != nil {
		return nil
	}
	return src
}

func (p *Pass) executors() *executors {
	if p.executor == nil {
		p.executor = &executors{byPack: map[string]*jsfacts.Facts{}}
	}
	return p.executor
}

// packFacts is the analysis of the pack's own executor, made once per pass.
func packFacts(p *Pass) *jsfacts.Facts {
	x := p.executors()
	if x.own == nil {
		src, entry := executorSource(p)
		x.own = jsfacts.Analyze(src, entry, func(name string) []byte { return packModule(p, name) })
	}
	return x.own
}

// typeFacts is the analysis of the code implementing node type t: the
// pack's own executor when t is the linted pack's (as linted, not the
// catalog's copy), else its pack's in the catalog; nil when there is none
// to follow. pass may be nil (the editor's hover, outside a lint).
func typeFacts(x *executors, pass *Pass, c *catalog.Catalog, t *catalog.NodeType) *jsfacts.Node {
	if t == nil {
		return nil
	}
	if pass != nil && t.Pack == pass.Root().Get("name").String() {
		return packFacts(pass).Node(t.TypeID)
	}
	f, ok := x.byPack[t.Pack]
	if !ok {
		f = jsfacts.Analyze([]byte(c.RuntimeSource(t)), "", nil) // the catalog lends the entry alone
		x.byPack[t.Pack] = f
	}
	return f.Node(t.TypeID)
}
