package chain

import (
	"fmt"
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/jsonpos"
)

// bigChain is a chain of n nodes in a line, each templating a parameter,
// with a port-less and a ported edge into each: the shape whose cost must
// grow linearly.
func bigChain(n int) []byte {
	var nodes, edges, params []string
	for i := range n {
		nodes = append(nodes, fmt.Sprintf(`{"id": "n%d", "typeId": "acme.tools.review%d", "inputs": {"q": "{{params.p%d}}"}}`, i, i%7, i))
		params = append(params, fmt.Sprintf(`"p%d": {"type": "string"}`, i))
		if i > 0 {
			edges = append(edges, fmt.Sprintf(`{"from": "n%d", "to": "n%d"}, {"from": "n%d.out", "to": "n%d.in"}`, i-1, i, i-1, i))
		}
	}
	return fmt.Appendf(nil, `{"chains": [{"chainId": "c", "label": "C", "parameters": {"type": "object", "properties": {%s}}, "dag": {"nodes": [%s], "edges": [%s]}}]}`,
		strings.Join(params, ","), strings.Join(nodes, ","), strings.Join(edges, ","))
}

func benchmarkAnalyze(b *testing.B, n int) {
	doc, err := jsonpos.Parse(bigChain(n))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		Analyze(doc.Root, Options{})
	}
}

func BenchmarkAnalyze30(b *testing.B)   { benchmarkAnalyze(b, 30) }
func BenchmarkAnalyze3000(b *testing.B) { benchmarkAnalyze(b, 3000) }
