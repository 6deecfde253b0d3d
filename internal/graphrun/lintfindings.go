package graphrun

import (
	"slices"
	"strconv"
	"strings"

	"github.com/wop-cli/wop/internal/chain"
	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/lint"
	"github.com/wop-cli/wop/internal/pack"
)

// withLint adds to each DAG of an the findings lint reports in its chain
// that the analysis does not make itself (chain-config-invalid,
// chain-key-undeclared, typeid-local-namespace, ...): the drawing shows
// every finding lint places on a chain, a node or an edge, as lint words
// it, so the two never disagree. Lint runs once per pack with the options
// it lints the pack by (every rule: which ones place findings in a chain
// is theirs to say, not the drawing's).
func withLint(an *chain.Analysis, pk *pack.Pack, opt lint.Options) error {
	ds, err := lint.Run(pk, opt)
	if err != nil {
		return err
	}
	attachLint(an, ds, pk.Path(pack.ManifestName))
	return nil
}

// attachLint places each diagnostic of file ds has in a chain of an on the
// DAG of that chain: on the node or edge whose pointer encloses it, or
// beside the chain. The analysis' own rules are there already.
func attachLint(an *chain.Analysis, ds []diag.Diagnostic, file string) {
	own := chain.Rules()
	for _, d := range ds {
		if d.File != file || d.Pointer == "" || slices.Contains(own, d.Rule) {
			continue
		}
		for _, g := range an.DAGs {
			if f, ok := locate(g, d); ok {
				g.Findings = append(g.Findings, f)
				break
			}
		}
	}
}

// locate is d as a finding of DAG g when its pointer lies in g's chain:
// the dag object or the chain entry that holds it.
func locate(g *chain.DAG, d diag.Diagnostic) (chain.Finding, bool) {
	f := chain.Finding{Rule: d.Rule, Pointer: d.Pointer, Message: d.Message}
	chainPtr := strings.TrimSuffix(g.Pointer, "/dag")
	if !within(d.Pointer, chainPtr) {
		return f, false
	}
	if rest, ok := strings.CutPrefix(d.Pointer, g.Pointer+"/edges/"); ok {
		i, _, _ := strings.Cut(rest, "/")
		if _, err := strconv.Atoi(i); err == nil {
			f.Edge = g.Pointer + "/edges/" + i
		}
	}
	for _, n := range g.Nodes {
		if within(d.Pointer, n.Pointer) {
			f.Node = n.ID
			break
		}
	}
	return f, true
}

// within reports whether pointer ptr is at or below pointer at.
func within(ptr, at string) bool { return ptr == at || strings.HasPrefix(ptr, at+"/") }
