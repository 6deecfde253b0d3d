// Package chaindraw draws chain analyses (internal/chain) for people and
// tools: a terminal drawing, a Mermaid flowchart, Graphviz DOT, an SVG
// laid out by Graphviz, and the analysed graph as JSON. It draws what the
// analysis found and never decides anything itself: roles, bindings and
// findings come from chain.Analyze, the one analysis lint reports from.
package chaindraw

import (
	"context"
	"fmt"
	"io"

	"github.com/wop-cli/wop/internal/chain"
)

// Formats are the output formats, as --format names them.
var Formats = []string{"text", "mermaid", "dot", "svg", "json"}

// Chart is one chain to draw.
type Chart struct {
	// Pack names the pack holding the chain ("name@version").
	Pack string
	// File is the manifest's path as the user gave it, for headings.
	File string
	DAG  *chain.DAG
	// Changes marks what changed against a previous release (nil: no
	// comparison was asked for).
	Changes *Changes
}

// Options are the printers' settings.
type Options struct {
	// Color colours the text drawing (lipgloss); the caller decides it
	// (a terminal, NO_COLOR unset).
	Color bool
	// Width is the text drawing's width in columns (0: 100).
	Width int
	// Layout lays out DOT graphs as SVG (internal/graphviz's helper), all
	// of a run's at once; only the svg format calls it.
	Layout func(ctx context.Context, graphs []Graph) ([][]byte, error)
	// Markdown writes the mermaid format as Markdown, a heading and a
	// fenced flowchart per chart (-o FILE.md), instead of one flowchart.
	Markdown bool
}

// Graph is one DOT graph for Options.Layout; Pinned asks for the nodes
// to stay at their pos attributes (Graphviz neato -n).
type Graph struct {
	Pinned bool
	DOT    []byte
}

// Write prints charts in format to w.
func Write(ctx context.Context, w io.Writer, format string, charts []Chart, o Options) error {
	switch format {
	case "text":
		return writeText(w, charts, o)
	case "mermaid":
		if o.Markdown {
			_, err := io.WriteString(w, MermaidMarkdown(charts))
			return err
		}
		doc, links := mermaidAll(charts)
		if len(charts) > 1 && (links > MermaidMaxEdges || len(doc) > MermaidMax) {
			return fmt.Errorf("the %d chains make one Mermaid diagram of %d links and %d characters, more than Mermaid draws (%d links, %d characters): write Markdown, a diagram per chain (-o FILE.md), or draw fewer chains (--chain)", len(charts), links, len(doc), MermaidMaxEdges, MermaidMax)
		}
		_, err := io.WriteString(w, doc)
		return err
	case "dot":
		_, err := w.Write(DOTAll(charts))
		return err
	case "svg":
		return writeSVG(ctx, w, charts, o)
	case "json":
		return writeJSON(w, charts)
	}
	return fmt.Errorf("unknown format %q (want text, mermaid, dot, svg or json)", format)
}
