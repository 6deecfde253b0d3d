package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/wop-cli/wop/internal/diag"
)

// printGitHub writes GitHub Actions workflow commands, one line per finding.
// Escaping follows actions/toolkit: the message escapes % CR LF; property
// values also escape : and ,. Control characters are escaped first, as in
// text output: the log GitHub shows is a terminal too.
func printGitHub(w io.Writer, in Input) error {
	var b strings.Builder
	for _, d := range in.Diags {
		cmd := map[diag.Severity]string{diag.Error: "error", diag.Warning: "warning"}[d.Severity]
		if cmd == "" {
			cmd = "notice"
		}
		props := []string{"file=" + escapeProperty(EscapeControl(d.File, false))}
		if d.Start.Line > 0 {
			props = append(props, fmt.Sprintf("line=%d", d.Start.Line))
			if d.Start.Column > 0 {
				props = append(props, fmt.Sprintf("col=%d", d.Start.Column))
			}
		}
		props = append(props, "title="+escapeProperty(EscapeControl(d.Rule, false)))
		msg := EscapeControl(strings.ReplaceAll(in.Invoked.Mentions(d.Message), "\r\n", "\n"), true)
		fmt.Fprintf(&b, "::%s %s::%s\n", cmd, strings.Join(props, ","), escapeData(msg))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
