package lint

import (
	"github.com/wop-cli/wop/internal/catalog"
	"github.com/wop-cli/wop/internal/chain"
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
func chainOptions(p *Pass) chain.Options { return ChainOptions(p.Root(), p.Catalog, p.Spec) }

// ChainOptions are the facts the chain analysis of a manifest reads, as
// lint passes them: the pack's own typeIds (its nodes[]) and a reader of
// the catalog's executors, which the analysis must not import. Every
// reader of the analysis (lint, the editor's hover) passes the same, so
// they agree.
func ChainOptions(root *jsonpos.Value, c *catalog.Catalog, tree spec.Tree) chain.Options {
	o := chain.Options{Catalog: c, V2: tree == spec.V2}
	if root == nil {
		return o
	}
	o.OwnTypeIDs = map[string]bool{}
	eachObject(root.Get("nodes"), "/nodes", func(_ string, n *jsonpos.Value) { o.OwnTypeIDs[n.Get("typeId").String()] = true })
	if c != nil {
		fills := executorFills{}
		o.Fills = func(t *catalog.NodeType, input string) bool { return fills.fills(c, t, input) }
	}
	return o
}

// chainRule is the check of a rule the chain analysis decides: it reports
// the analysis' findings of that rule, as they are.
func chainRule(id string) func(p *Pass) {
	return func(p *Pass) {
		for _, f := range chains(p).Findings() {
			if f.Rule == id {
				p.Reportf(f.Pointer, "%s", f.Message)
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
func (f executorFills) fills(c *catalog.Catalog, t *catalog.NodeType, r string) bool {
	x, ok := f[t.Pack]
	if !ok {
		x = parseExecutor(c.RuntimeSource(t))
		f[t.Pack] = x
	}
	return x.toleratesMissing(t.TypeID, r) != ""
}
