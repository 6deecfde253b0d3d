package agfimport

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/agf"
	"github.com/wop-cli/wop/internal/exitcode"
)

func TestImportRefusesBeforeWriting(t *testing.T) {
	dir := t.TempDir()
	abs := func(p string) string { return filepath.Join(dir, p) }
	src := agf.Source{Read: func(name string) ([]byte, error) { return os.ReadFile(abs(name)) }, Display: func(n string) string { return n }}
	if err := os.WriteFile(abs("bad.agf.yaml"), []byte("a: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	req := Request{File: "missing.agf.yaml", PackDir: "pack", Abs: abs, Source: src}
	var input *InputError
	if _, err := Import(req); !errors.As(err, &input) {
		t.Errorf("missing file: %v, want an InputError", err)
	}
	req.File = "bad.agf.yaml"
	var lintErr *LintError
	if _, err := Import(req); !errors.As(err, &lintErr) || lintErr.Errors == 0 || len(lintErr.Diags) == 0 {
		t.Errorf("invalid YAML: %v, want a LintError with its findings", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("wrote %d entries", len(entries))
	}
}

// TestCheckModelClass: a near miss is a usage error naming the class
// meant; a schema class passes.
func TestCheckModelClass(t *testing.T) {
	if err := CheckModelClass(""); err != nil {
		t.Errorf("empty: %v", err)
	}
	if err := CheckModelClass("reasoning"); err != nil {
		t.Errorf("reasoning: %v", err)
	}
	var usage *exitcode.UsageError
	if err := CheckModelClass("reasonin"); !errors.As(err, &usage) || !strings.Contains(err.Error(), `did you mean "reasoning"?`) {
		t.Errorf("near miss: %v", err)
	}
}
