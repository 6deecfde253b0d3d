package chaindraw

import (
	"encoding/json"
	"io"

	"github.com/wop-cli/wop/internal/chain"
)

// JSONVersion is the version of the JSON document's shape
// (docs/chain-graph.md); it changes only when a field changes meaning or
// goes away.
const JSONVersion = 1

// jsonDoc is the json format's document.
type jsonDoc struct {
	Version int         `json:"version"`
	Charts  []jsonChart `json:"charts"`
}

type jsonChart struct {
	Pack    string     `json:"pack"`
	File    string     `json:"file,omitempty"`
	Chain   *chain.DAG `json:"chain"`
	Changes *Changes   `json:"changes,omitempty"`
	// Removed are the previous release's nodes and edges this one dropped,
	// which the drawings show struck through.
	Removed *removed `json:"removed,omitempty"`
}

type removed struct {
	Nodes []chain.Node `json:"nodes,omitempty"`
	Edges []chain.Edge `json:"edges,omitempty"`
}

// writeJSON writes the analysed charts as one JSON document.
func writeJSON(w io.Writer, charts []Chart) error {
	doc := jsonDoc{Version: JSONVersion, Charts: []jsonChart{}}
	for _, c := range charts {
		jc := jsonChart{Pack: c.Pack, File: c.File, Chain: c.DAG, Changes: c.Changes}
		if c.Changes != nil && c.Changes.Previous != nil {
			r := &removed{}
			for _, n := range c.Changes.Previous.Nodes {
				if c.Changes.Nodes[n.ID] == Removed {
					r.Nodes = append(r.Nodes, n)
				}
			}
			for _, e := range c.Changes.Previous.Edges {
				if c.Changes.Edges[EdgeKey(e)] == Removed {
					r.Edges = append(r.Edges, e)
				}
			}
			if len(r.Nodes)+len(r.Edges) > 0 {
				jc.Removed = r
			}
		}
		doc.Charts = append(doc.Charts, jc)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(doc)
}
