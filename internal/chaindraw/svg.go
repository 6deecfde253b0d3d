package chaindraw

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
)

// writeSVG lays out each chart with Graphviz (o.Layout) and writes one
// self-contained SVG: no DOCTYPE (it names an external DTD), no scripts,
// fonts named by family only. Where the author's positions make a
// readable picture (readablePositions), the nodes stay there and Graphviz
// routes the edges around them; otherwise dot ranks the chain. Several
// charts are stacked in one document.
func writeSVG(ctx context.Context, w io.Writer, charts []Chart, o Options) error {
	if o.Layout == nil {
		return errors.New("svg: no layout engine")
	}
	graphs := make([]Graph, len(charts))
	for i, c := range charts {
		v := newView(c)
		if len(v.nodes) > MaxSVGNodes || len(v.edges) > MaxSVGEdges {
			return fmt.Errorf("%s has %d nodes and %d edges, more than an SVG layout takes (%d nodes, %d edges; Graphviz's time grows faster than the graph): draw it with --format dot, mermaid, text or json", v.title, len(v.nodes), len(v.edges), MaxSVGNodes, MaxSVGEdges)
		}
		pinned := readablePositions(v)
		graphs[i] = Graph{Pinned: pinned, DOT: dotGraph(v, c, pinned)}
	}
	docs, err := o.Layout(ctx, graphs)
	if err != nil {
		return fmt.Errorf("laying out the chains: %w", err)
	}
	for i := range docs {
		docs[i] = selfContained(docs[i])
	}
	if len(docs) == 1 {
		_, err := w.Write(docs[0])
		return err
	}
	return stack(w, docs)
}

// MaxSVGNodes bounds the nodes of a chain the svg format lays out:
// Graphviz's layout time grows faster than the graph, and the pinned
// layout's spread compares every pair of nodes. The registry's largest
// chain has 30.
const MaxSVGNodes = 1000

// MaxSVGEdges bounds a chain's edges likewise: dot's crossing minimisation
// is what grows fastest (100 nodes with 500 edges lay out in 0.6 s, with
// 1,000 in 5.5 s, with 4,950 in over two minutes). The registry's densest
// chain has under 40.
const MaxSVGEdges = 500

var (
	svgDoctype = regexp.MustCompile(`(?s)<!DOCTYPE[^>]*>\s*`)
	svgProlog  = regexp.MustCompile(`(?s)^\s*<\?xml[^>]*\?>\s*`)
	svgRoot    = regexp.MustCompile(`<svg\b[^>]*\bwidth="([0-9.]+)pt"[^>]*\bheight="([0-9.]+)pt"[^>]*>`)
)

// selfContained drops what refers outside the file: the DOCTYPE's DTD.
func selfContained(svg []byte) []byte {
	svg = svgProlog.ReplaceAll(svg, nil)
	svg = svgDoctype.ReplaceAll(svg, nil)
	return append([]byte("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"), svg...)
}

// stack nests several Graphviz documents in one, each below the last.
func stack(w io.Writer, docs [][]byte) error {
	var body bytes.Buffer
	width, y := 0.0, 0.0
	for _, d := range docs {
		d = svgProlog.ReplaceAll(d, nil)
		m := svgRoot.FindSubmatchIndex(d)
		if m == nil {
			return errors.New("svg: the layout engine's answer has no sized <svg> element")
		}
		dw, _ := strconv.ParseFloat(string(d[m[2]:m[3]]), 64)
		dh, _ := strconv.ParseFloat(string(d[m[4]:m[5]]), 64)
		fmt.Fprintf(&body, "<svg x=\"0\" y=\"%s\" width=\"%s\" height=\"%s\"%s", ftoa(y), ftoa(dw), ftoa(dh), stripSize(d[m[0]+len("<svg"):m[1]]))
		body.Write(d[m[1]:])
		body.WriteByte('\n')
		width = max(width, dw)
		y += dh + 24
	}
	_, err := fmt.Fprintf(w, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"%spt\" height=\"%spt\" viewBox=\"0 0 %s %s\">\n%s</svg>\n",
		ftoa(width), ftoa(y), ftoa(width), ftoa(y), body.Bytes())
	return err
}

var svgSize = regexp.MustCompile(`\s(width|height)="[^"]*"`)

// stripSize drops an <svg> element's own width and height attributes.
func stripSize(attrs []byte) []byte {
	return svgSize.ReplaceAll(attrs, nil)
}
