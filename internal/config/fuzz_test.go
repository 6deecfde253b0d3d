package config

import (
	"errors"
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/diag"
)

// FuzzParse checks that any document either parses into a configuration
// whose every value is usable (severities, sizes, globs) or fails with an
// *Error whose every problem is placed and worded in YAML terms.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		"registry: public\nrules:\n  ref-missing: off\n  x:\n    severity: error\n    ignore: [a/**]\nlimits:\n  file: 10MB\n",
		"registy: public\nrules: [a]\nlimits: 5\n",
		"a: &x {b: *x}\n",
		"rules:\n  ? [a]\n  : error\n",
		"%YAML 1.2\n---\nregistry: private\n",
		"rules: {x: {ignore: ['[']}}\n",
		"catalog: [a, https://x.example]\nhost: h.json\nprofile: registry\n",
		"catalog: {a: [b]}\nhost: [x]\n",
		"",
		"\t",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		c, err := Parse(".wop.yaml", raw, Options{})
		if err != nil {
			var ce *Error
			if !errors.As(err, &ce) || len(ce.Problems) == 0 {
				t.Fatalf("error %T %v is not a list of problems", err, err)
			}
			for _, p := range ce.Problems {
				for _, goType := range []string{"[]string", "map[", "config.", "reflect", "unmarshal"} {
					if strings.Contains(p.Message, goType) {
						t.Fatalf("problem names a Go type: %s", p)
					}
				}
			}
			return
		}
		for id, rc := range c.Rules {
			if rc.Severity != "" {
				if _, err := diag.ParseSeverity(rc.Severity); err != nil {
					t.Fatalf("rule %s: accepted severity %q", id, rc.Severity)
				}
			}
			for _, g := range rc.Ignore {
				if _, err := globRegexp(g); err != nil {
					t.Fatalf("accepted glob %q", g)
				}
			}
		}
		if _, _, _, err := c.Limits.Bytes(); err != nil {
			t.Fatalf("accepted limits %+v", c.Limits)
		}
	})
}
