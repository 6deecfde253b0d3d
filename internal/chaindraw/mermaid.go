package chaindraw

import (
	"fmt"
	"strings"

	"github.com/wop-cli/wop/internal/chain"
)

// Mermaid draws a chart as a Mermaid flowchart, as GitHub renders one in
// Markdown. Node ids are the printer's own (n0, n1, ...), so any chain id
// is safe; labels are quoted with Mermaid's entity codes for the
// characters that would end or reinterpret them.
func Mermaid(c Chart) string { return MermaidAll([]Chart{c}) }

// MermaidAll draws charts as one Mermaid flowchart, which Mermaid's parser
// and GitHub take whole: one chart as Mermaid draws it, several each in a
// subgraph of its own, their ids prefixed with the chart's index (c0n0,
// c1n0, ...) so no two charts share one.
func MermaidAll(charts []Chart) string {
	doc, _ := mermaidAll(charts)
	return doc
}

// MermaidMaxEdges is the number of links Mermaid draws in one diagram (its
// maxEdges; beyond it the diagram is refused).
const MermaidMaxEdges = 500

// mermaidAll is MermaidAll and the number of links it draws.
func mermaidAll(charts []Chart) (string, int) {
	m := &mermaidDoc{}
	if len(charts) == 1 {
		v := newView(charts[0])
		fmt.Fprintf(&m.b, "%%%% %s\nflowchart TD\n", comment(charts[0].Pack+" "+v.title))
		m.chart(v, "", "  ")
	} else {
		fmt.Fprintf(&m.b, "%%%% %d chains\nflowchart TD\n", len(charts))
		for i, c := range charts {
			v := newView(c)
			fmt.Fprintf(&m.b, "  subgraph c%d [\"%s\"]\n", i, mermaidText(c.Pack+" · "+v.title))
			m.chart(v, fmt.Sprintf("c%d", i), "    ")
			m.b.WriteString("  end\n")
		}
	}
	m.b.WriteString(mermaidClassDefs)
	for _, s := range m.styles {
		m.b.WriteString(s + "\n")
	}
	return m.b.String(), m.links
}

// MermaidMarkdown draws charts as Markdown: a heading and a fenced Mermaid
// flowchart per chart, which GitHub renders one below the other (the -o
// FILE.md form of the mermaid format).
func MermaidMarkdown(charts []Chart) string {
	var b strings.Builder
	for i, c := range charts {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "## %s · %s\n\n```mermaid\n%s```\n", markdownText(c.Pack), markdownText(chartTitle(c)), Mermaid(c))
	}
	return b.String()
}

// mermaidDoc is one flowchart being written: its text, the links drawn so
// far (linkStyle counts them across the whole document) and the class and
// link styles written after the classDefs.
type mermaidDoc struct {
	b      strings.Builder
	links  int
	styles []string
}

// chart writes one chart's nodes, parameters, edges and loose findings,
// its ids prefixed with prefix, each line indented by ind.
func (m *mermaidDoc) chart(v *view, prefix, ind string) {
	b := &m.b
	ids := map[string]string{}
	for i, n := range v.nodes {
		ids[n.ID] = fmt.Sprintf("%sn%d", prefix, i)
		open, closing := mermaidShape(n)
		fmt.Fprintf(b, "%s%s%s\"%s\"%s\n", ind, ids[n.ID], open, mermaidLabel(v, n), closing)
	}
	for i, p := range v.params {
		if len(p.Feeds) == 0 {
			continue
		}
		pid := fmt.Sprintf("%sp%d", prefix, i)
		fmt.Fprintf(b, "%s%s>\"%s\"]\n", ind, pid, mermaidText(v.paramText(p)))
		for _, to := range p.Feeds {
			if id, ok := ids[to]; ok {
				fmt.Fprintf(b, "%s%s -.-> %s\n", ind, pid, id)
				m.links++
			}
		}
		m.styles = append(m.styles, "  class "+pid+" param")
	}
	for _, e := range v.edges {
		m.edge(v, e, ids, ind)
	}
	for i, f := range v.loose {
		fmt.Fprintf(b, "%s%sf%d[\"%s\"]\n", ind, prefix, i, mermaidText("⚠ "+f.Rule+" at "+f.Pointer))
		m.styles = append(m.styles, fmt.Sprintf("  class %sf%d finding", prefix, i))
	}
	for _, n := range v.nodes {
		for _, class := range nodeClasses(n) {
			m.styles = append(m.styles, "  class "+ids[n.ID]+" "+class)
		}
	}
}

// mermaidLabel is a node's label as Mermaid's HTML: its lines, the id and
// marks bold, the type and changes in italics.
func mermaidLabel(v *view, n vnode) string {
	var lines []string
	for _, l := range v.label(n) {
		t := mermaidText(l.text)
		switch l.kind {
		case lineID:
			t = "<b>" + t + "</b>"
		case lineType, lineChange:
			t = "<i>" + t + "</i>"
		case lineMark:
			t = "<b>" + t + "</b>"
		}
		lines = append(lines, t)
	}
	return strings.Join(lines, "<br/>")
}

// edge writes one edge as a link (dotted when removed) with its label and
// its link style.
func (m *mermaidDoc) edge(v *view, e vedge, ids map[string]string, ind string) {
	arrow := "-->"
	if e.mark == Removed || e.OrderingOnly {
		arrow = "-.->" // a removed edge is also grey (mermaidLinkStyle)
	}
	if l := v.edgeLabel(e); l != "" {
		fmt.Fprintf(&m.b, "%s%s %s|\"%s\"| %s\n", ind, ids[e.From], arrow, mermaidText(l), ids[e.To])
	} else {
		fmt.Fprintf(&m.b, "%s%s %s %s\n", ind, ids[e.From], arrow, ids[e.To])
	}
	if s := mermaidLinkStyle(e); s != "" {
		m.styles = append(m.styles, fmt.Sprintf("  linkStyle %d %s", m.links, s))
	}
	m.links++
}

const mermaidClassDefs = `  classDef trigger fill:#e8f0fe,stroke:#3367d6
  classDef gate fill:#fef7e0,stroke:#e37400
  classDef sideeffect fill:#fce8e6,stroke:#c5221f
  classDef pure fill:#e6f4ea,stroke:#137333
  classDef param fill:#f1f3f4,stroke:#5f6368
  classDef finding stroke:#d93025,stroke-width:3px
  classDef added stroke:#188038,stroke-width:3px
  classDef changed stroke:#f29900,stroke-width:3px
  classDef removed fill:#f1f3f4,stroke:#9aa0a6,stroke-dasharray:5 5,color:#80868b
`

// nodeClasses are the classDefs a node takes: its role, then a finding or
// a change (the later class's stroke wins).
func nodeClasses(n vnode) []string {
	var out []string
	switch n.Role {
	case chain.RoleTrigger:
		out = append(out, "trigger")
	case chain.RoleGate:
		out = append(out, "gate")
	case chain.RoleSideEffect:
		out = append(out, "sideeffect")
	case chain.RolePure:
		out = append(out, "pure")
	}
	if n.mark != "" {
		out = append(out, string(n.mark))
	}
	if len(n.findings) > 0 || n.missing {
		out = append(out, "finding")
	}
	return out
}

func mermaidShape(n vnode) (string, string) {
	switch n.Role {
	case chain.RoleTrigger:
		return "([", "])"
	case chain.RoleGate:
		return "{{", "}}"
	case chain.RoleSideEffect:
		return "[/", "/]"
	}
	return "[", "]"
}

func mermaidLinkStyle(e vedge) string {
	switch {
	case len(e.findings) > 0:
		return "stroke:#d93025,stroke-width:3px"
	case e.mark == Added:
		return "stroke:#188038,stroke-width:3px"
	case e.mark == Changed:
		return "stroke:#f29900,stroke-width:3px"
	case e.mark == Removed:
		return "stroke:#9aa0a6,stroke-dasharray:5 5"
	case e.Dangling:
		return "stroke:#d93025,stroke-dasharray:5 5"
	}
	return ""
}

// mermaidText escapes text for a quoted Mermaid label: entity codes for
// the quote, '#' (which starts a code), angle brackets (HTML), the
// backtick (a Markdown string) and the pipe and brackets edge labels end
// at; line breaks become spaces.
func mermaidText(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '#':
			b.WriteString("#35;")
		case '"':
			b.WriteString("#quot;")
		case '<':
			b.WriteString("#lt;")
		case '>':
			b.WriteString("#gt;")
		case '`':
			b.WriteString("#96;")
		case '|':
			b.WriteString("#124;")
		case '&':
			b.WriteString("#amp;")
		case '\n', '\r', '\t':
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// comment makes text safe for one comment line.
func comment(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
