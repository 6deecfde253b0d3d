package chaindraw

import (
	"math"
	"slices"
	"unicode/utf8"

	"github.com/wop-cli/wop/internal/chain"
)

// This file decides where a drawing's nodes go and how large their boxes
// are: the author's canvas positions where they make a readable picture,
// else Graphviz's own layout; and boxes sized from font metrics, so their
// text fits whichever sans-serif font the reader's SVG viewer falls back
// to.

// helveticaWidths are Helvetica's advance widths (Adobe's AFM, in 1/1000
// em) for the printable ASCII characters from the space on; the SVG names
// Helvetica first.
var helveticaWidths = [95]uint16{
	278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, // space to /
	556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, // 0 to ?
	1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, // @ to O
	667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556, // P to _
	333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, // ` to o
	556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584, // p to ~
}

// fallbackFactor widens Helvetica's measure to cover the fonts an SVG
// viewer falls back to without it: DejaVu Sans, Linux's usual sans-serif,
// runs up to 15 % wider; bold adds a little more.
const (
	fallbackFactor = 1.15
	boldFactor     = 1.08
)

// textWidth is the width of s in points at size, in the widest of the
// fonts the SVG names or falls back to. A character outside ASCII (arrows,
// ⚠, CJK) counts one em.
func textWidth(s string, size float64, bold bool) float64 {
	units := 0
	for _, r := range s {
		if r >= ' ' && r <= '~' {
			units += int(helveticaWidths[r-' '])
		} else if r != utf8.RuneError {
			units += 1000
		}
	}
	w := float64(units) / 1000 * size * fallbackFactor
	if bold {
		w *= boldFactor
	}
	return w
}

// lineSize is the font size of a label line in points, as the DOT
// printer sets it, and whether it is bold.
func lineSize(l line) (float64, bool) {
	switch l.kind {
	case lineID:
		return 10, true
	case lineMark:
		return 8, true
	case lineType, lineChange:
		return 8, false
	}
	return 10, false
}

// boxSize is the size of a node's box in points: its widest line and its
// lines' height, with the margins the DOT printer asks for (0.2 by 0.06
// inches) and a hexagon's slanted sides for a gate.
func (v *view) boxSize(n vnode) (w, h float64) {
	for _, l := range v.label(n) {
		size, bold := lineSize(l)
		w = max(w, textWidth(l.text, size, bold))
		h += size * 1.2
	}
	w += 2 * 0.2 * 72
	h += 2 * 0.06 * 72
	if n.Role == chain.RoleGate {
		w *= 1.35
	}
	return w, h
}

// box is a rectangle in the author's coordinates scaled by spread, y down.
type box struct{ x, y, w, h float64 } // centre and size

func (b box) inflate(d float64) box { return box{b.x, b.y, b.w + 2*d, b.h + 2*d} }

// crossesSegment reports whether the segment from p to q passes through b.
func (b box) crossesSegment(px, py, qx, qy float64) bool {
	// Liang–Barsky clipping against the box.
	x0, x1, y0, y1 := b.x-b.w/2, b.x+b.w/2, b.y-b.h/2, b.y+b.h/2
	t0, t1 := 0.0, 1.0
	dx, dy := qx-px, qy-py
	for _, c := range [4][2]float64{{-dx, px - x0}, {dx, x1 - px}, {-dy, py - y0}, {dy, y1 - py}} {
		p, q := c[0], c[1]
		if p == 0 {
			if q < 0 {
				return false
			}
			continue
		}
		t := q / p
		if p < 0 {
			t0 = max(t0, t)
		} else {
			t1 = min(t1, t)
		}
		if t0 > t1 {
			return false
		}
	}
	return true
}

func (b box) overlaps(o box) bool {
	return math.Abs(b.x-o.x)*2 < b.w+o.w && math.Abs(b.y-o.y)*2 < b.h+o.h
}

// readablePositions reports whether the author's positions make a
// readable picture: every node has one, the nodes are neither in one row
// nor one column (a canvas strip thousands of points wide), and, once
// spread apart, no edge drawn straight between its ends passes through a
// node it does not touch and no two edges' labels, drawn at their middles,
// overlap each other or a node. Graphviz then keeps the nodes there and
// routes the edges around them; otherwise it lays the chain out itself.
// The answer depends on the chain alone, so redrawing one chain (the
// editor does, as the buffer changes) gives the same kind of layout.
func readablePositions(v *view) bool {
	if !spanned(v) {
		return false
	}
	s := spread(v)
	at := map[string]box{}
	boxes := make([]box, len(v.nodes))
	for i, n := range v.nodes {
		w, h := v.boxSize(n)
		boxes[i] = box{n.Position.X * s, n.Position.Y * s, w, h}
		if _, dup := at[n.ID]; !dup {
			at[n.ID] = boxes[i]
		}
	}
	var labels []box
	for _, e := range v.edges {
		a, b := at[e.From], at[e.To]
		for i, n := range v.nodes {
			if n.ID != e.From && n.ID != e.To && boxes[i].inflate(4).crossesSegment(a.x, a.y, b.x, b.y) {
				return false
			}
		}
		if l := v.edgeLabel(e); l != "" {
			lb := box{(a.x + b.x) / 2, (a.y + b.y) / 2, textWidth(l, 9, false), 12}
			if overlapsAny(lb, boxes) || overlapsAny(lb, labels) {
				return false
			}
			labels = append(labels, lb)
		}
	}
	return true
}

// spanned reports whether the chain has two nodes or more, each with a
// position, neither all in one row nor all in one column.
func spanned(v *view) bool {
	if len(v.nodes) < 2 {
		return false
	}
	xs, ys := map[float64]bool{}, map[float64]bool{}
	for _, n := range v.nodes {
		if n.Position == nil {
			return false
		}
		xs[n.Position.X], ys[n.Position.Y] = true, true
	}
	return len(xs) > 1 && len(ys) > 1
}

// overlapsAny reports whether b overlaps one of boxes.
func overlapsAny(b box, boxes []box) bool {
	return slices.ContainsFunc(boxes, b.overlaps)
}

// spread is the factor that scales the author's canvas positions apart
// until no two node boxes overlap: a canvas draws small cards, wop's
// boxes carry the type and the inputs. The arrangement stays the author's;
// only its scale changes.
func spread(v *view) float64 {
	const gap = 60 // room for an edge label between two boxes
	boxes := make([]box, 0, len(v.nodes))
	for _, n := range v.nodes {
		w, h := v.boxSize(n)
		boxes = append(boxes, box{n.Position.X, n.Position.Y, w, h})
	}
	s := 1.0
	for i := range boxes {
		for j := i + 1; j < len(boxes); j++ {
			a, b := boxes[i], boxes[j]
			dx, dy := math.Abs(a.x-b.x), math.Abs(a.y-b.y)
			needX, needY := (a.w+b.w)/2+gap, (a.h+b.h)/2+gap
			if dx*s >= needX || dy*s >= needY {
				continue
			}
			// the cheaper axis to separate them along
			fit := math.Inf(1)
			if dx > 0 {
				fit = needX / dx
			}
			if dy > 0 {
				fit = min(fit, needY/dy)
			}
			if !math.IsInf(fit, 1) {
				s = max(s, fit)
			}
		}
	}
	return min(s, 20)
}
