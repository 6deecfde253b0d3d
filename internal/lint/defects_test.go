package lint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/tarball"
	"golang.org/x/tools/txtar"
)

// TestRealWorldDefects recreates the defects published packs shipped
// (LINT-RULES.md, "Defects that real published packs shipped") and checks
// that each is caught by the rules named in its want section. A fixture has
// a source pack under src/, a built archive as an "@archive" spec, or both.
// Defect 20 (a version rebuilt with other bytes) is caught by verify --source
// and by publish; see internal/verify and the build-sign-verify script.
func TestRealWorldDefects(t *testing.T) {
	files, _ := filepath.Glob("testdata/defects/*.txtar")
	if len(files) != 19 {
		t.Fatalf("%d defect fixtures, want 19", len(files))
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".txtar"), func(t *testing.T) {
			a, err := txtar.ParseFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var src []ExampleFile
			var got []diag.Diagnostic
			var want []string
			for _, file := range a.Files {
				switch {
				case file.Name == "want":
					want = strings.Fields(string(file.Data))
				case file.Name == "@archive":
					got = append(got, lintArchive(t, string(file.Data))...)
				case strings.HasPrefix(file.Name, "src/"):
					src = append(src, ExampleFile{strings.TrimPrefix(file.Name, "src/"), string(file.Data)})
				}
			}
			if len(src) > 0 {
				got = append(got, lintExample(t, src, tarball.DefaultLimits, "")...)
			}
			fired := map[string]bool{}
			for _, d := range got {
				fired[d.Rule] = true
			}
			for _, rule := range want {
				if !fired[rule] {
					t.Errorf("%s not caught; findings: %v", rule, rulesOf(got))
				}
			}
		})
	}
}

func lintArchive(t *testing.T, spec string) []diag.Diagnostic {
	p := filepath.Join(t.TempDir(), "pack.tgz")
	if err := os.WriteFile(p, buildArchive(t, spec), 0o644); err != nil {
		t.Fatal(err)
	}
	_, ds := lintPath(t, p)
	return ds
}

// lintPath loads the pack at p (a folder or an archive) and lints it.
func lintPath(t *testing.T, p string) (*pack.Pack, []diag.Diagnostic) {
	t.Helper()
	pk, err := pack.Load(p, tarball.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := Run(pk, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return pk, ds
}

func rulesOf(ds []diag.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Rule)
	}
	return out
}
