package chaindraw

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/chain"
)

// This file checks drawings as pictures, from the SVG's own coordinates:
// no edge passes through a node it does not touch.

// svgShape is a node's box or an edge's path in the SVG, with its title
// (the node's DOT id, or "from->to").
type svgShape struct {
	title  string
	points [][2]float64
	texts  [][2]float64 // each text line's left and right, measured
	lines  []box        // each text line's box, measured (centre and size)
}

type svgGroup struct {
	Class string `xml:"class,attr"`
	Title string `xml:"title"`
	Poly  []struct {
		Points string `xml:"points,attr"`
	} `xml:"polygon"`
	Path []struct {
		D string `xml:"d,attr"`
	} `xml:"path"`
	Text []struct {
		X      float64 `xml:"x,attr"`
		Y      float64 `xml:"y,attr"`
		Anchor string  `xml:"text-anchor,attr"`
		Size   float64 `xml:"font-size,attr"`
		Weight string  `xml:"font-weight,attr"`
		Body   string  `xml:",chardata"`
	} `xml:"text"`
	Ellipse []struct {
		CX float64 `xml:"cx,attr"`
		CY float64 `xml:"cy,attr"`
		RX float64 `xml:"rx,attr"`
		RY float64 `xml:"ry,attr"`
	} `xml:"ellipse"`
}

var svgNumber = regexp.MustCompile(`-?[0-9]*\.?[0-9]+(e-?[0-9]+)?`)

func svgPairs(s string) [][2]float64 {
	nums := svgNumber.FindAllString(s, -1)
	var out [][2]float64
	for i := 0; i+1 < len(nums); i += 2 {
		x, _ := strconv.ParseFloat(nums[i], 64)
		y, _ := strconv.ParseFloat(nums[i+1], 64)
		out = append(out, [2]float64{x, y})
	}
	return out
}

// svgCharts reads each chart of an SVG document (one, or several nested
// <svg>s) as its nodes and edges.
func svgCharts(t *testing.T, doc []byte) [][2][]svgShape {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(doc))
	var charts [][2][]svgShape
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return charts
		}
		if err != nil {
			t.Fatal(err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		if se.Name.Local == "g" && attr(se, "class") == "graph" {
			charts = append(charts, [2][]svgShape{})
			continue
		}
		if se.Name.Local != "g" || len(charts) == 0 {
			continue
		}
		class := attr(se, "class")
		if class != "node" && class != "edge" {
			continue
		}
		var g svgGroup
		if err := dec.DecodeElement(&g, &se); err != nil {
			t.Fatal(err)
		}
		s := svgShape{title: g.Title}
		for _, tx := range g.Text {
			w := textWidth(tx.Body, tx.Size, tx.Weight == "bold")
			left := tx.X
			switch tx.Anchor {
			case "middle":
				left -= w / 2
			case "end":
				left -= w
			}
			s.texts = append(s.texts, [2]float64{left, left + w})
			s.lines = append(s.lines, box{left + w/2, tx.Y - tx.Size/3, w, tx.Size})
		}
		switch {
		case class == "edge" && len(g.Path) > 0:
			s.points = bezierPoints(g.Path[0].D)
		case len(g.Poly) > 0:
			s.points = svgPairs(g.Poly[0].Points)
		case len(g.Path) > 0:
			s.points = svgPairs(g.Path[0].D)
		case len(g.Ellipse) > 0:
			e := g.Ellipse[0]
			s.points = [][2]float64{{e.CX - e.RX, e.CY - e.RY}, {e.CX + e.RX, e.CY + e.RY}}
		}
		i := 0
		if class == "edge" {
			i = 1
		}
		charts[len(charts)-1][i] = append(charts[len(charts)-1][i], s)
	}
}

func attr(se xml.StartElement, name string) string {
	for _, a := range se.Attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

// bezierPoints samples an edge's path ("M x,y C x,y x,y x,y ..."): Graphviz
// draws every edge as a chain of cubic Béziers.
func bezierPoints(d string) [][2]float64 {
	p := svgPairs(d)
	var out [][2]float64
	for i := 0; i+3 < len(p); i += 3 {
		for k := 0; k <= 20; k++ {
			t := float64(k) / 20
			u := 1 - t
			var q [2]float64
			for j := range 2 {
				q[j] = u*u*u*p[i][j] + 3*u*u*t*p[i+1][j] + 3*u*t*t*p[i+2][j] + t*t*t*p[i+3][j]
			}
			out = append(out, q)
		}
	}
	return out
}

// edgesThroughNodes names each edge that passes through the box of a node
// it does not touch (the box shrunk by a point or two, for rounding).
func edgesThroughNodes(nodes, edges []svgShape) []string {
	var bad []string
	for _, e := range edges {
		from, to, _ := strings.Cut(e.title, "->")
		for _, n := range nodes {
			if n.title == from || n.title == to || len(n.points) == 0 {
				continue
			}
			x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
			for _, p := range n.points {
				x0, y0, x1, y1 = min(x0, p[0]), min(y0, p[1]), max(x1, p[0]), max(y1, p[1])
			}
			const shrink = 2
			for _, p := range e.points {
				if p[0] > x0+shrink && p[0] < x1-shrink && p[1] > y0+shrink && p[1] < y1-shrink {
					bad = append(bad, e.title+" through "+n.title)
					break
				}
			}
		}
	}
	return bad
}

// TestSVGNoEdgeThroughANode: in every drawing of the fixtures and of
// chains shaped like the registry's (one row of positions, the draft's
// content wired past the approval gate to the sender), no edge passes
// through a node it does not touch, judged from the SVG's coordinates.
func TestSVGNoEdgeThroughANode(t *testing.T) {
	charts := map[string]Chart{}
	for name, c := range fixtures(t) {
		charts[name] = c
	}
	for _, tc := range layoutCases {
		charts["layout/"+tc.name] = layoutChart(t, tc.pack)
	}
	for name, c := range charts {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Write(t.Context(), &buf, "svg", []Chart{c}, Options{Layout: layout}); err != nil {
				t.Fatal(err)
			}
			got := svgCharts(t, buf.Bytes())
			if len(got) != 1 || len(got[0][0]) == 0 {
				t.Fatalf("read %d charts from the SVG", len(got))
			}
			if bad := edgesThroughNodes(got[0][0], got[0][1]); len(bad) > 0 {
				t.Errorf("edges through nodes they do not touch: %q", bad)
			}
			if bad := labelsColliding(got[0][1]); len(bad) > 0 {
				t.Errorf("edge labels overlap: %q", bad)
			}
			for _, n := range got[0][0] {
				x0, x1 := math.Inf(1), math.Inf(-1)
				for _, p := range n.points {
					x0, x1 = min(x0, p[0]), max(x1, p[0])
				}
				for _, tx := range n.texts {
					if tx[0] < x0-1 || tx[1] > x1+1 {
						t.Errorf("node %s: a line of text (%.0f to %.0f, measured in the widest fallback font) leaves its box (%.0f to %.0f)", n.title, tx[0], tx[1], x0, x1)
					}
				}
			}
		})
	}
}

// labelsColliding names the pairs of edges whose labels, measured in the
// widest fallback font, overlap.
func labelsColliding(edges []svgShape) []string {
	var bad []string
	for i, a := range edges {
		for _, b := range edges[i+1:] {
			for _, la := range a.lines {
				for _, lb := range b.lines {
					if la.overlaps(lb) {
						bad = append(bad, a.title+" / "+b.title)
					}
				}
			}
		}
	}
	return bad
}

// TestEdgesThroughNodesSeesACrossing: the geometry check finds the
// crossing a straight one-row drawing has (the draft's content drawn
// through the approval gate to the sender).
func TestEdgesThroughNodesSeesACrossing(t *testing.T) {
	nodes := []svgShape{
		{title: "draft", points: [][2]float64{{0, 0}, {100, 40}}},
		{title: "approval", points: [][2]float64{{200, 0}, {300, 40}}},
		{title: "send", points: [][2]float64{{400, 0}, {500, 40}}},
	}
	edges := []svgShape{{title: "draft->send", points: bezierPoints("M100,20C200,20 300,20 400,20")}}
	if bad := edgesThroughNodes(nodes, edges); len(bad) != 1 {
		t.Errorf("found %q, want draft->send through approval", bad)
	}
}

// TestReadablePositionsLabels: the author's positions are kept only when
// no edge label, drawn at the edge's middle, overlaps a node or another
// label; the same positions with unlabelled edges are kept.
func TestReadablePositionsLabels(t *testing.T) {
	at := func(id string, x, y float64) chain.Node {
		return chain.Node{ID: id, TypeID: "x", Position: &chain.Position{X: x, Y: y}}
	}
	edge := func(from, to string, labelled bool) chain.Edge {
		if labelled {
			return chain.Edge{From: from, FromPort: strings.Repeat("o", 30), To: to, ToPort: strings.Repeat("i", 30)}
		}
		return chain.Edge{From: from, To: to}
	}
	readable := func(nodes []chain.Node, edges ...chain.Edge) bool {
		return readablePositions(newView(Chart{Pack: "p@1.0.0", DAG: &chain.DAG{Pointer: "/chains/0/dag", ChainID: "c", Nodes: nodes, Edges: edges}}))
	}
	// Two edges crossing at one middle: their labels meet there.
	cross := []chain.Node{at("a", 0, 0), at("b", 1000, 0), at("c", 0, 1000), at("d", 1000, 1000)}
	if !readable(cross, edge("a", "d", false), edge("b", "c", false)) {
		t.Fatal("unlabelled crossing edges: positions not kept")
	}
	if readable(cross, edge("a", "d", true), edge("b", "c", true)) {
		t.Error("two labels at one point: positions kept")
	}
	// A node beside an edge's middle, clear of the edge but not of its
	// label (wider than the gap).
	w, _ := newView(Chart{DAG: &chain.DAG{Nodes: []chain.Node{at("b", 0, 0)}}}).boxSize(vnode{Node: at("b", 0, 0)})
	beside := []chain.Node{at("a", 0, 0), at("c", 0, 1000), at("b", w/2+40, 500)}
	if !readable(beside, edge("a", "c", false)) {
		t.Fatal("unlabelled edge beside a node: positions not kept")
	}
	if readable(beside, edge("a", "c", true)) {
		t.Error("a label over a node: positions kept")
	}
}

// TestSpreadSeparatesBoxes: a canvas's small cards, scaled by spread, are
// wop's boxes with room between them; spread never shrinks a canvas.
func TestSpreadSeparatesBoxes(t *testing.T) {
	var nodes []chain.Node
	for i, p := range [][2]float64{{0, 0}, {50, 0}, {0, 40}, {50, 40}, {25, 90}} {
		nodes = append(nodes, chain.Node{ID: "n" + strconv.Itoa(i), TypeID: "acme.tools.something", Position: &chain.Position{X: p[0], Y: p[1]}})
	}
	v := newView(Chart{Pack: "p@1.0.0", DAG: &chain.DAG{Pointer: "/chains/0/dag", ChainID: "c", Nodes: nodes}})
	s := spread(v)
	for i, a := range v.nodes {
		for _, b := range v.nodes[i+1:] {
			aw, ah := v.boxSize(a)
			bw, bh := v.boxSize(b)
			ba := box{a.Position.X * s, a.Position.Y * s, aw, ah}
			bb := box{b.Position.X * s, b.Position.Y * s, bw, bh}
			if ba.overlaps(bb) {
				t.Errorf("scaled by %.2f, %s and %s overlap", s, a.ID, b.ID)
			}
		}
	}
	far := []chain.Node{{ID: "a", TypeID: "x", Position: &chain.Position{X: 0, Y: 0}}, {ID: "b", TypeID: "x", Position: &chain.Position{X: 5000, Y: 5000}}}
	if s := spread(newView(Chart{DAG: &chain.DAG{Nodes: far}})); s != 1 {
		t.Errorf("nodes far apart scaled by %.2f, want 1", s)
	}
}
