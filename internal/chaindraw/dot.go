package chaindraw

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/wop-cli/wop/internal/chain"
)

// DOT draws a chart as a Graphviz digraph (dot -Tsvg lays it out).
func DOT(c Chart) []byte {
	return dotGraph(newView(c), c, false)
}

// DOTAll draws charts as one Graphviz digraph: one chart as DOT draws it,
// several each in a cluster of its own, node ids prefixed with the chart's
// index ("0/notify") so no two charts share one. dot -Tsvg makes one
// document of it, -Tpng one picture.
func DOTAll(charts []Chart) []byte {
	if len(charts) == 1 {
		return DOT(charts[0])
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "// %d chains\ndigraph \"chains\" {\n", len(charts))
	b.WriteString(dotDefaults)
	for i, c := range charts {
		v := newView(c)
		fmt.Fprintf(&b, "  subgraph \"cluster_%d\" {\n    graph [label=%s, style=\"rounded\", color=\"#dadce0\"];\n", i, dotID(c.Pack+" · "+v.title))
		dotBody(&b, v, dotBodyOptions{prefix: strconv.Itoa(i) + "/", ind: "    "})
		b.WriteString("  }\n")
	}
	b.WriteString("}\n")
	return b.Bytes()
}

// dotDefaults are the graph, node and edge attributes every digraph sets.
const dotDefaults = "  graph [rankdir=TB, nodesep=0.5, ranksep=0.5, fontname=\"Helvetica,Arial,sans-serif\", fontsize=12, labelloc=t];\n" +
	"  node [shape=box, margin=\"0.2,0.06\", style=\"rounded,filled\", fillcolor=\"#ffffff\", fontname=\"Helvetica,Arial,sans-serif\", fontsize=10];\n" +
	"  edge [fontname=\"Helvetica,Arial,sans-serif\", fontsize=9];\n"

// dotGraph writes the digraph; pinned places each node at its author
// position, in points, for Graphviz's neato -n (the svg printer's choice
// when the author's positions make a readable picture).
func dotGraph(v *view, c Chart, pinned bool) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "// %s\ndigraph %s {\n", comment(c.Pack+" "+v.title), dotID(v.title))
	b.WriteString(dotDefaults)
	b.WriteString("  graph [label=" + dotID(v.title) + "];\n")
	o := dotBodyOptions{ind: "  "}
	if pinned {
		o.scale, o.pinned = spread(v), true
		b.WriteString("  graph [splines=true];\n") // routed around the pinned nodes
	}
	dotBody(&b, v, o)
	b.WriteString("}\n")
	return b.Bytes()
}

type dotBodyOptions struct {
	prefix string // before every node id
	ind    string // before every line
	pinned bool
	scale  float64 // of the author positions, when pinned
}

// dotBody writes a chart's nodes, parameters, edges and loose findings.
func dotBody(b *bytes.Buffer, v *view, o dotBodyOptions) {
	id := func(s string) string { return dotID(o.prefix + s) }
	top, left := math.Inf(-1), math.Inf(1) // of the pinned nodes, for the parameters
	for _, n := range v.nodes {
		w, _ := v.boxSize(n)
		attrs := []string{"label=" + dotHTMLLabel(v.label(n))}
		attrs = append(attrs, dotNodeStyle(n)...)
		if o.pinned && n.Position != nil {
			x, y := n.Position.X*o.scale, -n.Position.Y*o.scale
			top, left = max(top, y), min(left, x-w/2)
			attrs = append(attrs, fmt.Sprintf("pos=\"%s,%s!\"", ftoa(x), ftoa(y)))
		}
		fmt.Fprintf(b, "%s%s [%s];\n", o.ind, id(n.ID), strings.Join(attrs, ", "))
	}
	for _, p := range v.params {
		if len(p.Feeds) == 0 {
			continue
		}
		pid := id("params." + p.Name)
		text := v.paramText(p)
		pos := ""
		if o.pinned { // in a row above the nodes
			pos, left = abovePos(text, left, top)
		}
		fmt.Fprintf(b, "%s%s [shape=note, fillcolor=\"#f1f3f4\", label=%s%s];\n", o.ind, pid, dotHTMLLabel([]line{{text: text, kind: lineName}}), pos)
		for _, to := range p.Feeds {
			fmt.Fprintf(b, "%s%s -> %s [style=dotted, color=\"#5f6368\"];\n", o.ind, pid, id(to))
		}
	}
	for _, e := range v.edges {
		var attrs []string
		if l := v.edgeLabel(e); l != "" {
			attrs = append(attrs, "label="+dotEdgeLabel(l))
		}
		attrs = append(attrs, dotEdgeStyle(e)...)
		fmt.Fprintf(b, "%s%s -> %s", o.ind, id(e.From), id(e.To))
		if len(attrs) > 0 {
			fmt.Fprintf(b, " [%s]", strings.Join(attrs, ", "))
		}
		b.WriteString(";\n")
	}
	for i, f := range v.loose {
		text := "⚠ " + f.Rule + " at " + f.Pointer
		pos := ""
		if o.pinned {
			pos, left = abovePos(text, left, top)
		}
		fmt.Fprintf(b, "%s%s [shape=note, color=\"#d93025\", label=%s%s];\n", o.ind, id(fmt.Sprintf("finding %d", i)), dotHTMLLabel([]line{{text: text, kind: lineName}}), pos)
	}
}

// abovePos places a note with text in a row above pinned nodes whose top
// is at top, from left on: its pos attribute and the next note's left.
func abovePos(text string, left, top float64) (string, float64) {
	w := textWidth(text, 10, false) + 40
	return fmt.Sprintf(", pos=\"%s,%s!\"", ftoa(left+w/2), ftoa(top+120)), left + w + 30
}

func ftoa(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// dotID quotes s as a DOT string: a backslash and a quote are escaped, and
// a line break becomes \n.
func dotID(s string) string {
	return `"` + dotEscaper.Replace(s) + `"`
}

// dotEscaper and htmlEscaper are read-only tables: a replacer builds its
// lookup on first use.
var (
	dotEscaper  = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\r", "")
	htmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "\n", " ")
)

// dotHTMLLabel is a node's label as a Graphviz HTML-like label: one line
// per row, the id bold, the type small, findings red, in a cell as wide as
// the widest line measured in the widest font a viewer may fall back to
// (textWidth), so that the text stays inside the box whatever the font.
func dotHTMLLabel(lines []line) string {
	var b strings.Builder
	width := 0.0
	for _, l := range lines {
		size, bold := lineSize(l)
		width = max(width, textWidth(l.text, size, bold))
	}
	fmt.Fprintf(&b, `<<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" CELLPADDING="0"><TR><TD ALIGN="LEFT" BALIGN="LEFT" WIDTH="%d">`, int(math.Ceil(width)))
	for i, l := range lines {
		if i > 0 {
			b.WriteString("<BR/>")
		}
		t := htmlEscape(l.text)
		switch l.kind {
		case lineID:
			t = "<B>" + t + "</B>"
		case lineType:
			t = "<FONT POINT-SIZE=\"8\" COLOR=\"#5f6368\">" + t + "</FONT>"
		case lineUnbound, lineFinding:
			t = "<FONT COLOR=\"#d93025\">" + t + "</FONT>"
		case lineMark:
			t = "<FONT POINT-SIZE=\"8\" COLOR=\"" + markColor[l.mark] + "\"><B>" + t + "</B></FONT>"
		case lineChange:
			t = "<FONT POINT-SIZE=\"8\" COLOR=\"#b06000\">" + t + "</FONT>"
		}
		b.WriteString(t)
	}
	b.WriteString("</TD></TR></TABLE>>")
	return b.String()
}

// dotEdgeLabel is an edge's label as an HTML-like label whose cell is as
// wide as the text measured in the widest fallback font, so that Graphviz
// keeps neighbouring labels apart by what a viewer shows.
func dotEdgeLabel(text string) string {
	return fmt.Sprintf(`<<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" CELLPADDING="1"><TR><TD WIDTH="%d">%s</TD></TR></TABLE>>`, int(math.Ceil(textWidth(text, 9, false))), htmlEscape(text))
}

// markColor is the colour of a change's mark, as its frame has it.
var markColor = map[Mark]string{Added: "#188038", Changed: "#b06000", Removed: "#80868b"}

func htmlEscape(s string) string { return htmlEscaper.Replace(s) }

func dotNodeStyle(n vnode) []string {
	fill := map[chain.Role]string{chain.RoleTrigger: "#e8f0fe", chain.RoleGate: "#fef7e0", chain.RoleSideEffect: "#fce8e6", chain.RolePure: "#e6f4ea"}[n.Role]
	var out []string
	if fill != "" {
		out = append(out, `fillcolor="`+fill+`"`)
	}
	switch n.Role {
	case chain.RoleTrigger:
		out = append(out, `shape=box`, `style="rounded,filled,bold"`)
	case chain.RoleGate:
		out = append(out, `shape=hexagon`, `style="filled"`)
	}
	switch {
	case n.mark == Removed:
		out = append(out, `color="#9aa0a6"`, `fontcolor="#80868b"`, `style="rounded,dashed"`)
	case len(n.findings) > 0 || n.missing:
		out = append(out, `color="#d93025"`, `penwidth=2.5`)
	case n.mark == Added:
		out = append(out, `color="#188038"`, `penwidth=2.5`)
	case n.mark == Changed:
		out = append(out, `color="#f29900"`, `penwidth=2.5`)
	}
	return out
}

func dotEdgeStyle(e vedge) []string {
	if e.OrderingOnly && e.mark != Removed {
		return append(dotEdgeColour(e), `style=dashed`) // dashed: nothing handed over
	}
	return dotEdgeColour(e)
}

// dotEdgeColour is an edge's colour: removed (grey, dashed), with a
// finding, added or changed.
func dotEdgeColour(e vedge) []string {
	switch {
	case e.mark == Removed:
		return []string{`color="#9aa0a6"`, `style=dashed`}
	case len(e.findings) > 0:
		return []string{`color="#d93025"`, `fontcolor="#d93025"`, `penwidth=2`}
	case e.mark == Added:
		return []string{`color="#188038"`, `fontcolor="#188038"`, `penwidth=2`}
	case e.mark == Changed:
		return []string{`color="#f29900"`, `fontcolor="#b06000"`, `penwidth=2`}
	}
	return nil
}
