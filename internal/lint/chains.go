package lint

import (
	"github.com/wop-cli/wop/internal/catalog"
	"github.com/wop-cli/wop/internal/chain"
	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/jsfacts"
	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/spec"
)

// chains is the pass's one chain analysis (internal/chain), made on first
// use: the chain rules report its findings, and the other rules that look
// at DAG nodes read its nodes.
func chains(p *Pass) *chain.Analysis {
	if p.chains == nil {
		p.chains = chain.Analyze(p.Root(), chainOptions(p))
	}
	return p.chains
}

// chainOptions passes the analysis what lint knows and it must not import.
// A node type of the pack being linted is read from the pass's own analysis
// of its executor (the pack as linted, not the catalog's copy), so the
// executor is analysed once per lint.
func chainOptions(p *Pass) chain.Options {
	return chainOptionsWith(p.Root(), p.Catalog, p.Spec, executorFills{x: p.executors(), pass: p})
}

// ChainOptions are the facts the chain analysis of a manifest reads, as
// lint passes them: the pack's own typeIds (its nodes[]) and a reader of
// the catalog's executors, which the analysis must not import. Every
// reader of the analysis (lint, the editor's hover) passes the same, so
// they agree.
func ChainOptions(root *jsonpos.Value, c *catalog.Catalog, tree spec.Tree) chain.Options {
	return chainOptionsWith(root, c, tree, executorFills{x: &executors{byPack: map[string]*jsfacts.Facts{}}})
}

func chainOptionsWith(root *jsonpos.Value, c *catalog.Catalog, tree spec.Tree, fills executorFills) chain.Options {
	o := chain.Options{Catalog: c, V2: tree == spec.V2}
	if root == nil {
		return o
	}
	o.OwnTypeIDs = map[string]bool{}
	eachObject(root.Get("nodes"), "/nodes", func(_ string, n *jsonpos.Value) { o.OwnTypeIDs[n.Get("typeId").String()] = true })
	if c != nil {
		o.Fills = func(t *catalog.NodeType, input string) bool { return fills.fills(c, t, input) }
	}
	return o
}

// chainRule is the check of a rule the chain analysis decides: it reports
// the analysis' findings of that rule, as they are.
func chainRule(id string) func(p *Pass) {
	return func(p *Pass) {
		for _, f := range chains(p).Findings() {
			switch {
			case f.Rule != id:
			case f.Info:
				p.ReportSeverity(diag.Info, f.Pointer, "%s", f.Message)
			default:
				p.Reportf(f.Pointer, "%s", f.Message)
			}
		}
	}
}

// executorFills reads the executors of the catalog's packs, each once per
// lint of a pack, to learn which required inputs a node type fills itself.
type executorFills struct {
	x    *executors
	pass *Pass // the pass, whose analysis of the pack's executor serves its own types; nil outside lint
}

// fills reports whether node type t's own executor puts a usable value in
// r's place when it is absent (jsfacts.Fallback): a chain that leaves r
// out runs, so the contradiction between the schema and the executor is
// node-input-required-filled's, on the node type's pack. A hollow
// fallback (”, {}) or a failure fills nothing: the edge into r is
// type-checked as any other.
func (f executorFills) fills(c *catalog.Catalog, t *catalog.NodeType, r string) bool {
	n := typeFacts(f.x, f.pass, c, t)
	if n == nil {
		return false
	}
	fact, ok := n.Input(r)
	return ok && fact.Kind == jsfacts.Fallback
}
