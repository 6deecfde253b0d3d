package chaindraw

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/mattn/go-runewidth"
	"github.com/muesli/termenv"
	"github.com/wop-cli/wop/internal/chain"
	"github.com/wop-cli/wop/internal/report"
)

// The text drawing's sizes, in columns.
const (
	defaultWidth = 100
	maxBox       = 48 // two boxes side by side fit in 100 columns
	minDrawing   = 40 // narrower than this, boxes give way to a list
)

// textStyles colour the drawing; all are plain without colour.
type textStyles struct {
	title, dim, bad, added, removed, changed lipgloss.Style
	roles                                    map[chain.Role]lipgloss.Style
}

func newTextStyles(w io.Writer, color bool) textStyles {
	s := textStyles{roles: map[chain.Role]lipgloss.Style{}}
	if !color {
		return s
	}
	// The caller decided (TTY, NO_COLOR); a renderer of its own keeps
	// lipgloss from second-guessing that from the process's stdout.
	r := lipgloss.NewRenderer(w)
	r.SetColorProfile(termenv.ANSI)
	s.title = r.NewStyle().Bold(true)
	s.dim = r.NewStyle().Faint(true)
	s.bad = r.NewStyle().Foreground(lipgloss.Color("1")).Bold(true)
	s.added = r.NewStyle().Foreground(lipgloss.Color("2"))
	s.removed = r.NewStyle().Foreground(lipgloss.Color("8"))
	s.changed = r.NewStyle().Foreground(lipgloss.Color("3"))
	s.roles[chain.RoleTrigger] = r.NewStyle().Foreground(lipgloss.Color("4"))
	s.roles[chain.RoleGate] = r.NewStyle().Foreground(lipgloss.Color("3"))
	s.roles[chain.RoleSideEffect] = r.NewStyle().Foreground(lipgloss.Color("5"))
	s.roles[chain.RolePure] = r.NewStyle().Foreground(lipgloss.Color("6"))
	return s
}

func (s textStyles) mark(m Mark) lipgloss.Style {
	switch m {
	case Added:
		return s.added
	case Removed:
		return s.removed
	case Changed:
		return s.changed
	}
	return lipgloss.Style{}
}

// writeText draws each chart in layers: the nodes no edge reaches first,
// then each node one layer below the lowest node feeding it. Each layer's
// nodes are boxes side by side, as many as the width holds, followed by
// the edges leaving them; below minDrawing columns the boxes give way to a
// list.
func writeText(w io.Writer, charts []Chart, o Options) error {
	width := o.Width
	if width <= 0 {
		width = defaultWidth
	}
	st := newTextStyles(w, o.Color)
	var b strings.Builder
	for i, c := range charts {
		if i > 0 {
			b.WriteByte('\n')
		}
		drawChart(&b, newView(c), c, st, width)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func drawChart(b *strings.Builder, v *view, c Chart, st textStyles, width int) {
	edges := 0
	for _, e := range v.edges {
		if e.mark != Removed {
			edges++
		}
	}
	head := fmt.Sprintf("%s  %s", safe(c.Pack), safe(v.title))
	fmt.Fprintf(b, "%s\n%s\n", st.title.Render(wrap(head, width, "  ")), st.dim.Render(plural(len(v.nodes), "node")+", "+plural(edges, "edge")+", "+plural(v.findings, "finding")+changeSummary(v.changes)))
	for _, p := range v.params {
		if len(p.Feeds) > 0 {
			b.WriteString(wrap(fmt.Sprintf("  %s ┄▶ %s", safe(v.paramText(p)), safe(strings.Join(p.Feeds, ", "))), width, "      ") + "\n")
		}
	}
	from := map[string][]vedge{} // the edges leaving each node, in order
	for _, e := range v.edges {
		from[e.From] = append(from[e.From], e)
	}
	for li, layer := range layers(v) {
		fmt.Fprintln(b, st.dim.Render(fmt.Sprintf("── layer %d %s", li+1, strings.Repeat("─", max(0, width-12-digits(li+1))))))
		if width >= minDrawing {
			drawBoxes(b, v, layer, st, width)
		} else {
			for _, n := range layer {
				drawListed(b, v, n, st)
			}
		}
		for _, n := range layer {
			for _, e := range from[n.ID] {
				drawEdge(b, v, e, st, width)
			}
		}
	}
	finding := func(f chain.Finding) {
		text := wrap("⚠ "+f.Rule+" "+safe(f.Message), width, "  ")
		rule := "⚠ " + f.Rule
		b.WriteString(st.bad.Render(rule) + strings.TrimPrefix(text, rule) + "\n")
	}
	for _, f := range v.loose {
		finding(f)
	}
	for _, n := range v.nodes {
		for _, f := range n.findings {
			finding(f)
		}
	}
	for _, e := range v.edges {
		for _, f := range e.findings {
			finding(f)
		}
	}
}

// wrap breaks text into lines of at most width columns at spaces, the
// lines after the first indented; a word longer than a line stays whole.
func wrap(text string, width int, indent string) string {
	var b strings.Builder
	col := 0
	for i, word := range strings.Fields(text) {
		w := runewidth.StringWidth(word)
		switch {
		case i == 0:
			if strings.HasPrefix(text, " ") {
				lead := len(text) - len(strings.TrimLeft(text, " "))
				b.WriteString(text[:lead])
				col = lead
			}
		case col+1+w > width:
			b.WriteString("\n" + indent)
			col = runewidth.StringWidth(indent)
		default:
			b.WriteByte(' ')
			col++
		}
		b.WriteString(word)
		col += w
	}
	return b.String()
}

func changeSummary(c *Changes) string {
	if c == nil {
		return ""
	}
	count := func(m map[string]Mark, want Mark) int {
		n := 0
		for _, v := range m {
			if v == want {
				n++
			}
		}
		return n
	}
	whose := "nodes'"
	if len(c.Inputs) == 1 {
		whose = "node's"
	}
	s := fmt.Sprintf("; against the previous release: nodes +%d −%d ~%d, edges +%d −%d ~%d, %d %s inputs changed",
		count(c.Nodes, Added), count(c.Nodes, Removed), count(c.Nodes, Changed), count(c.Edges, Added), count(c.Edges, Removed), count(c.Edges, Changed), len(c.Inputs), whose)
	if len(c.Params) > 0 {
		s += fmt.Sprintf(", parameters +%d −%d ~%d", count(c.Params, Added), count(c.Params, Removed), count(c.Params, Changed))
	}
	if n := len(c.NewRequired); n > 0 {
		s += fmt.Sprintf(" (%d newly required: %s)", n, strings.Join(c.NewRequired, ", "))
	}
	return s
}

// plural counts things: "1 edge", "2 edges".
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

func digits(n int) int { return len(fmt.Sprint(n)) }

// drawBoxes draws one layer's nodes as boxes, as many to a row as fit.
func drawBoxes(b *strings.Builder, v *view, layer []vnode, st textStyles, width int) {
	var row [][]string
	used := 0
	flush := func() {
		if len(row) == 0 {
			return
		}
		height := 0
		for _, box := range row {
			height = max(height, len(box))
		}
		for i := 0; i < height; i++ {
			var parts []string
			for _, box := range row {
				if i < len(box) {
					parts = append(parts, box[i])
				} else {
					parts = append(parts, strings.Repeat(" ", lipgloss.Width(box[0])))
				}
			}
			b.WriteString(strings.TrimRight(" "+strings.Join(parts, " "), " ") + "\n")
		}
		row, used = nil, 0
	}
	for _, n := range layer {
		box := nodeBox(v, n, st, min(maxBox, width-2))
		bw := lipgloss.Width(box[0]) + 1
		if used > 0 && used+bw > width-1 {
			flush()
		}
		row = append(row, box)
		used += bw
	}
	flush()
}

// nodeBox is a node as a box of lines, each as wide as the box; a line
// longer than limit is cut with an ellipsis.
func nodeBox(v *view, n vnode, st textStyles, limit int) []string {
	labels := textLabel(v, n)
	inner := 0
	texts := make([]string, len(labels))
	for i, l := range labels {
		texts[i] = runewidth.Truncate(safe(l.text), limit-4, "…")
		inner = max(inner, runewidth.StringWidth(texts[i]))
	}
	frame := st.mark(n.mark)
	if len(n.findings) > 0 || n.missing {
		frame = st.bad
	}
	tl, tr, bl, br, h, vert := "╭", "╮", "╰", "╯", "─", "│"
	if n.mark == Removed {
		h, vert = "┄", "┆"
	}
	tag := ""
	if n.mark != "" {
		tag = " " + string(n.mark) + " "
	}
	top := tl + h + tag + strings.Repeat(h, max(0, inner+1-runewidth.StringWidth(tag))) + tr
	out := []string{frame.Render(top)}
	inner = max(inner, runewidth.StringWidth(top)-4)
	for i, l := range labels {
		pad := strings.Repeat(" ", inner-runewidth.StringWidth(texts[i]))
		out = append(out, frame.Render(vert)+" "+lineStyle(st, n, l).Render(texts[i])+pad+" "+frame.Render(vert))
	}
	out = append(out, frame.Render(bl+strings.Repeat(h, inner+2)+br))
	out[0] = frame.Render(tl + h + tag + strings.Repeat(h, inner+1-runewidth.StringWidth(tag)) + tr)
	return out
}

// textLabel is a node's label without the mark line, which the text
// drawing's frame carries.
func textLabel(v *view, n vnode) []line {
	return slices.DeleteFunc(v.label(n), func(l line) bool { return l.kind == lineMark })
}

func lineStyle(st textStyles, n vnode, l line) lipgloss.Style {
	switch l.kind {
	case lineID:
		return st.title
	case lineType:
		if s, ok := st.roles[n.Role]; ok {
			return s
		}
		return st.dim
	case lineUnbound, lineFinding:
		return st.bad
	case lineChange:
		return st.changed
	}
	return lipgloss.Style{}
}

// drawListed is a node as list lines, for a terminal too narrow for boxes.
func drawListed(b *strings.Builder, v *view, n vnode, st textStyles) {
	for i, l := range textLabel(v, n) {
		indent := "  • "
		if i > 0 {
			indent = "      "
		}
		b.WriteString(indent + lineStyle(st, n, l).Render(safe(l.text)) + "\n")
	}
}

func drawEdge(b *strings.Builder, v *view, e vedge, st textStyles, width int) {
	arrow := "──▶"
	if e.mark == Removed {
		arrow = "┄┄▶"
	}
	text := fmt.Sprintf("   %s %s %s", safe(chain.End(e.From, e.FromPort)), arrow, safe(chain.End(e.To, e.ToPort)))
	if e.OrderingOnly {
		text = fmt.Sprintf("   %s %s %s  order only", safe(e.From), arrow, safe(e.To))
	}
	if g := gatingText(e.Gating); g != "" {
		text += "  " + safe(g)
	}
	if e.mark != "" {
		text += " (" + string(e.mark) + ")"
	}
	if e.mark == Changed && v.changes != nil {
		text += ": " + safe(strings.Join(v.changes.EdgeDetails[EdgeKey(e.Edge)], "; "))
	}
	s := st.mark(e.mark)
	if len(e.findings) > 0 {
		s = st.bad
		for _, f := range e.findings {
			text += "  ⚠ " + ruleShort(f)
		}
	}
	if runewidth.StringWidth(text) > width {
		text = wrap(text, width, "      ")
	}
	for _, l := range strings.Split(text, "\n") {
		b.WriteString(s.Render(l) + "\n")
	}
}

// safe escapes control characters: ids and names come from the pack and
// must not drive the terminal.
func safe(s string) string { return report.EscapeControl(s, false) }

// layers orders the drawn nodes by depth: a node comes one layer below
// the deepest node an edge brings it from, nodes on a cycle where the
// walk meets them; the order within a layer is the chain's.
func layers(v *view) [][]vnode {
	depth := map[string]int{}
	parents := map[string][]string{}
	for _, e := range v.edges {
		parents[e.To] = append(parents[e.To], e.From)
	}
	visiting := map[string]bool{}
	var walk func(id string) int
	walk = func(id string) int {
		if d, ok := depth[id]; ok {
			return d
		}
		if visiting[id] {
			return 0 // a cycle: chain-cycle reports it
		}
		visiting[id] = true
		d := 0
		for _, p := range parents[id] {
			d = max(d, walk(p)+1)
		}
		visiting[id] = false
		depth[id] = d
		return d
	}
	var out [][]vnode
	for _, n := range v.nodes {
		d := walk(n.ID)
		for len(out) <= d {
			out = append(out, nil)
		}
		out[d] = append(out[d], n)
	}
	return out
}
