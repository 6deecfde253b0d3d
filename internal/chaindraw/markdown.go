package chaindraw

import (
	"fmt"
	"html"
	"strings"

	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/invocation"
)

// The step summary's bounds. GitHub refuses a step summary over 1 MiB and
// Mermaid refuses a diagram over 50,000 characters (its maxTextSize): a
// chart whose flowchart is larger is named, not drawn, and once the
// summary reaches SummaryMax the remaining charts are only counted. A
// findings table lists at most SummaryRows rows and takes at most half of
// SummaryMax; the rows left out are counted.
const (
	SummaryMax  = 512 << 10
	SummaryRows = 200
	MermaidMax  = 50_000
	summaryHead = "## wop: workflow chains\n\n"
)

// SummaryInput is what a lint run's GitHub step summary shows.
type SummaryInput struct {
	// Findings are the run's findings after its filters, in lint's order.
	Findings []diag.Diagnostic
	// Against is --against ("" for none). Old then marks the findings the
	// previous release has too (Old[i] for Findings[i]); they are listed
	// apart from the new ones.
	Against string
	Old     []bool
	// Link is the URL of line (0: the whole file) of file in the pull
	// request's head, "" when there is none; nil links nothing.
	Link func(file string, line int) string
	// Charts are the chains to draw: those with findings, or changed.
	Charts []Chart
	// Invoked is the command that started wop: the summary's command
	// lines, its hints' and its findings', start with it.
	Invoked invocation.Name
}

// StepSummary is the Markdown a lint run appends to its GitHub step
// summary: a heading counting the findings, a table of them (new ones
// apart from old ones under --against) and the chains drawn, all within
// SummaryMax.
func StepSummary(in SummaryInput) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "## wop pack lint: %s\n\n", countWords(in.Findings))
	tableMax := SummaryMax / 2
	if in.Against == "" {
		findingTable(&b, in.Findings, in.Link, tableMax, in.Invoked)
	} else {
		var fresh, old []diag.Diagnostic
		for i, d := range in.Findings {
			if i < len(in.Old) && in.Old[i] {
				old = append(old, d)
			} else {
				fresh = append(fresh, d)
			}
		}
		ref := "`" + strings.ReplaceAll(in.Against, "`", "'") + "`"
		fmt.Fprintf(&b, "### New since %s: %s\n\n", ref, countWords(fresh))
		findingTable(&b, fresh, in.Link, tableMax/2, in.Invoked)
		if len(old) > 0 {
			fmt.Fprintf(&b, "<details><summary>Already in <code>%s</code>: %s</summary>\n\n", html.EscapeString(in.Against), countWords(old))
			findingTable(&b, old, in.Link, tableMax/2, in.Invoked)
			b.WriteString("</details>\n\n")
		}
	}
	if len(in.Charts) > 0 {
		b.Write(chartsSummary(in.Charts, SummaryMax-b.Len(), in.Invoked))
	}
	return []byte(b.String())
}

// countWords counts findings by severity: "1 error, 2 warnings" ("no
// findings" for none).
func countWords(ds []diag.Diagnostic) string {
	n := map[diag.Severity]int{}
	for _, d := range ds {
		n[d.Severity]++
	}
	var parts []string
	for _, s := range []struct {
		sev        diag.Severity
		one, other string
	}{{diag.Error, "error", "errors"}, {diag.Warning, "warning", "warnings"}, {diag.Info, "info", "info"}} {
		switch n[s.sev] {
		case 0:
		case 1:
			parts = append(parts, "1 "+s.one)
		default:
			parts = append(parts, fmt.Sprintf("%d %s", n[s.sev], s.other))
		}
	}
	if len(parts) == 0 {
		return "no findings"
	}
	return strings.Join(parts, ", ")
}

// findingTable writes ds as a Markdown table of at most SummaryRows rows
// and max bytes, counting the rows it leaves out; command lines start as
// invoked runs wop.
func findingTable(b *strings.Builder, ds []diag.Diagnostic, link func(string, int) string, max int, invoked invocation.Name) {
	if len(ds) == 0 {
		return
	}
	start := b.Len()
	b.WriteString("| Severity | Rule | Where | Finding |\n|---|---|---|---|\n")
	for i, d := range ds {
		row := findingRow(d, link, invoked)
		if i == SummaryRows || b.Len()-start+len(row) > max {
			fmt.Fprintf(b, "\n%d more findings not shown: the summary is bounded; `%s` lists them all.\n", len(ds)-i, invoked.Cmd("pack lint"))
			break
		}
		b.WriteString(row)
	}
	b.WriteByte('\n')
}

func findingRow(d diag.Diagnostic, link func(string, int) string, invoked invocation.Name) string {
	where := d.File
	if d.Start.Line > 0 {
		where = fmt.Sprintf("%s:%d", d.File, d.Start.Line)
	}
	cell := "`" + strings.ReplaceAll(where, "`", "'") + "`"
	if link != nil {
		if u := link(d.File, d.Start.Line); u != "" {
			cell = "[" + cell + "](" + u + ")"
		}
	}
	return fmt.Sprintf("| %s | `%s` | %s | %s |\n", d.Severity, d.Rule, cell, markdownText(invoked.Mentions(d.Message)))
}

// chartsSummary is the Markdown for charts in a GitHub step summary: each
// chart's heading, its findings and changes in a line each, and its
// Mermaid flowchart; once max bytes are reached the rest are counted.
// Command lines start as invoked runs wop.
func chartsSummary(charts []Chart, max int, invoked invocation.Name) []byte {
	var b strings.Builder
	b.WriteString(summaryHead)
	for i, c := range charts {
		section := summarySection(c, invoked)
		if b.Len()+len(section) > max {
			fmt.Fprintf(&b, "%d more chains not shown: the summary is limited to %d KiB; run `%s` to see them.\n", len(charts)-i, SummaryMax>>10, invoked.Cmd("pack graph"))
			break
		}
		b.WriteString(section)
	}
	return []byte(b.String())
}

func summarySection(c Chart, invoked invocation.Name) string {
	v := newView(c)
	var b strings.Builder
	fmt.Fprintf(&b, "### %s · %s\n\n", markdownText(c.Pack), markdownText(v.title))
	if s := changeSummary(c.Changes); s != "" {
		b.WriteString(markdownText(strings.TrimPrefix(s, "; ")) + "\n\n")
	}
	for _, f := range c.DAG.Findings {
		fmt.Fprintf(&b, "- **%s** `%s`: %s\n", f.Rule, strings.ReplaceAll(f.Pointer, "`", "'"), markdownText(invoked.Mentions(f.Message)))
	}
	if len(c.DAG.Findings) > 0 {
		b.WriteByte('\n')
	}
	m := Mermaid(c)
	if len(m) > MermaidMax {
		fmt.Fprintf(&b, "The flowchart (%d characters) is over Mermaid's %d; `%s` draws it.\n\n", len(m), MermaidMax, invoked.Cmd("pack graph --chain "+markdownText(c.DAG.ChainID)))
		return b.String()
	}
	b.WriteString("```mermaid\n" + m + "```\n\n")
	return b.String()
}

// markdownText escapes what Markdown and GitHub's HTML would read: the
// text comes from the pack.
func markdownText(s string) string { return markdownEscaper.Replace(s) }

// markdownEscaper is built once: a Replacer compiles its table on first use.
var markdownEscaper = strings.NewReplacer("\\", "\\\\", "`", "\\`", "*", "\\*", "_", "\\_", "[", "\\[", "]", "\\]", "<", "&lt;", ">", "&gt;", "#", "\\#", "|", "\\|", "\n", " ", "\r", " ")
