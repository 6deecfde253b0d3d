package breaking

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestPureComparison: breaking compares two packs and nothing else, so it
// imports neither the lint run, the release loaders nor the printers
// (internal/releasecheck wires those around it).
func TestPureComparison(t *testing.T) {
	banned := []string{"internal/lint", "internal/lintrun", "internal/release", "internal/report", "internal/registry", "internal/catalog"}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			for _, b := range banned {
				if strings.HasSuffix(path, "/"+b) {
					t.Errorf("%s imports %s: breaking stays a pure comparison (put it in internal/releasecheck)", name, path)
				}
			}
		}
	}
}
