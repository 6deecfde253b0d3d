package agf_test

import (
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/lint"
)

// FuzzLint: any input either fails to parse with a positioned error or
// lints without panicking, every finding placed inside the file.
func FuzzLint(f *testing.F) {
	for _, s := range []string{"schema_version: \"1.0.0\"\nmetadata: {id: a}\n", "a: &x [1]\nb: *x\n", "[[[", "execution_policy:\n  id: agf.batch\n  config: {agent: a, input_mapping: {x: parent.input.[]}}\n", "d: &d {model: m}\nexecution_policy:\n  config:\n    <<: [*d, {x: 1}]\n", "a: 1\n---\nb: 2\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		ds, err := lint.AgentFormat([]string{"f.agf.yaml"}, memSource(map[string]string{"f.agf.yaml": string(src)}), lint.AgentFormatOptions{})
		if err != nil {
			return
		}
		// YAML breaks lines at \n, \r\n and a lone \r, as editors do.
		lines := 1 + strings.Count(strings.ReplaceAll(string(src), "\r\n", "\n"), "\n") + strings.Count(strings.ReplaceAll(string(src), "\r\n", ""), "\r")
		for _, d := range ds {
			if d.Start.Line < 0 || d.Start.Line > lines+1 {
				t.Fatalf("finding at line %d of a %d-line file: %+v", d.Start.Line, lines, d)
			}
		}
	})
}
