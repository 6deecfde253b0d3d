package lintrun

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckOutput: --output naming a directory or a pack's own source is a
// usage error before lint runs; a report file name is fine.
func TestCheckOutput(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "dist"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := &Env{WorkDir: dir}
	for output, want := range map[string]string{
		"":                           "",
		"wop.sarif":                  "",
		"reports/lint.json":          "",
		"dist":                       "is a directory",
		"pack.json":                  "would replace a pack's source",
		"packs/a/pack.json":          "would replace a pack's source",
		".wop.yaml":                  "would replace a pack's source",
		"agents/researcher.agf.yaml": "would replace a pack's source",
	} {
		err := CheckOutput(env, "--output", output, "wop.sarif")
		var usage *InputError
		switch {
		case want == "" && err != nil:
			t.Errorf("%q: %v", output, err)
		case want != "" && (!errors.As(err, &usage) || !strings.Contains(err.Error(), want)):
			t.Errorf("%q: %v, want an input error (exit 2) saying %q", output, err, want)
		}
	}
}
