package chain

import "github.com/wop-cli/wop/internal/jsonpos"

// analyzeDAG fills a DAG's roles, bindings, parameters and findings.
func analyzeDAG(d *DAG, o Options) {}

// titleFindings adds the foreign-title findings, which compare chains.
func titleFindings(root *jsonpos.Value, a *Analysis) {}
