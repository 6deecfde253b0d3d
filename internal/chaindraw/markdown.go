package chaindraw

import (
	"fmt"
	"strings"
)

// The step summary's bounds. GitHub refuses a step summary over 1 MiB and
// Mermaid refuses a diagram over 50,000 characters (its maxTextSize): a
// chart whose flowchart is larger is named, not drawn, and once the
// summary reaches SummaryMax the remaining charts are only counted.
const (
	SummaryMax  = 512 << 10
	MermaidMax  = 50_000
	summaryHead = "## wop: workflow chains\n\n"
)

// Summary is the Markdown for a GitHub step summary: each chart's heading,
// its findings and changes in a line each, and its Mermaid flowchart.
func Summary(charts []Chart) []byte {
	var b strings.Builder
	b.WriteString(summaryHead)
	for i, c := range charts {
		section := summarySection(c)
		if b.Len()+len(section) > SummaryMax {
			fmt.Fprintf(&b, "%d more chains not shown: the summary is limited to %d KiB; run `wop pack graph` to see them.\n", len(charts)-i, SummaryMax>>10)
			break
		}
		b.WriteString(section)
	}
	return []byte(b.String())
}

func summarySection(c Chart) string {
	v := newView(c)
	var b strings.Builder
	fmt.Fprintf(&b, "### %s · %s\n\n", markdownText(c.Pack), markdownText(v.title))
	if s := changeSummary(c.Changes); s != "" {
		b.WriteString(markdownText(strings.TrimPrefix(s, "; ")) + "\n\n")
	}
	for _, f := range c.DAG.Findings {
		fmt.Fprintf(&b, "- **%s** `%s`: %s\n", f.Rule, strings.ReplaceAll(f.Pointer, "`", "'"), markdownText(f.Message))
	}
	if len(c.DAG.Findings) > 0 {
		b.WriteByte('\n')
	}
	m := Mermaid(c)
	if len(m) > MermaidMax {
		fmt.Fprintf(&b, "The flowchart (%d characters) is over Mermaid's %d; `wop pack graph --chain %s` draws it.\n\n", len(m), MermaidMax, markdownText(c.DAG.ChainID))
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
