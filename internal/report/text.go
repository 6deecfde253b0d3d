package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
	"github.com/wop-cli/wop/internal/diag"
)

// printText writes gcc-style lines grouped by file, a blank line between
// files: `pack.json:14:7: error ref-missing: message`, and ` (fixable)` at
// the end of a finding `wop pack lint --fix` would fix.
func printText(w io.Writer, in Input) error {
	styles := map[diag.Severity]lipgloss.Style{}
	if in.Color {
		// The caller decided (TTY, NO_COLOR); a renderer of its own keeps
		// lipgloss from second-guessing that from the process's stdout.
		r := lipgloss.NewRenderer(w)
		r.SetColorProfile(termenv.ANSI)
		styles[diag.Error] = r.NewStyle().Foreground(lipgloss.Color("1")).Bold(true)
		styles[diag.Warning] = r.NewStyle().Foreground(lipgloss.Color("3")).Bold(true)
		styles[diag.Info] = r.NewStyle().Foreground(lipgloss.Color("4"))
	}
	var b strings.Builder
	for i, d := range in.Diags {
		if i > 0 && d.File != in.Diags[i-1].File {
			b.WriteByte('\n')
		}
		sev := d.Severity.String()
		if st, ok := styles[d.Severity]; ok {
			sev = st.Render(sev)
		}
		// File names and messages carry archive entry names and file
		// contents: escaped, they cannot drive the terminal.
		fmt.Fprintf(&b, "%s: %s %s: %s%s\n", EscapeControl(Location(d), false), sev, d.Rule, indentContinuation(EscapeControl(strings.ReplaceAll(in.Invoked.Mentions(d.Message), "\r\n", "\n"), true)), fixMark(d))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Location is a finding's file:line:col as the text report prints it
// (the file alone for a finding about the whole file), unescaped.
func Location(d diag.Diagnostic) string {
	if d.Start.Line == 0 {
		return d.File
	}
	return fmt.Sprintf("%s:%d:%d", d.File, d.Start.Line, d.Start.Column)
}

// indentContinuation keeps a multi-line message readable under its line.
func indentContinuation(msg string) string {
	return strings.ReplaceAll(msg, "\n", "\n    ")
}

// FixableMark ends the text line of a finding --fix would fix.
const FixableMark = " (fixable)"

func fixMark(d diag.Diagnostic) string {
	if d.Fixable {
		return FixableMark
	}
	return ""
}
