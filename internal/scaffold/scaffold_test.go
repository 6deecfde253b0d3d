package scaffold

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/lint"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/sign"
	"github.com/wop-cli/wop/internal/spec"
	"github.com/wop-cli/wop/internal/tarball"
)

// TestScaffoldsLintClean: a new pack has no finding but its placeholders
// (placeholder-left warnings, one per TODO: the author must fill in), in
// the tree it was written for (which auto picks), and a v2 scaffold is one
// `sign --spec v2` accepts.
func TestScaffoldsLintClean(t *testing.T) {
	for _, tree := range []spec.Tree{spec.V1, spec.V2} {
		for _, k := range []Kind{Agent, Node} {
			name := "community.alice.summaries"
			dir := filepath.Join(t.TempDir(), name)
			if _, err := Create(Options{Dir: dir, Name: name, Kind: k, Spec: tree}); err != nil {
				t.Fatal(err)
			}
			pk, err := pack.Load(dir, tarball.DefaultLimits)
			if err != nil {
				t.Fatal(err)
			}
			for _, opt := range []spec.Tree{spec.Auto, tree} {
				ds, err := lint.Run(pk, lint.Options{Spec: opt})
				if err != nil {
					t.Fatal(err)
				}
				placeholders := 0
				for _, d := range ds {
					if d.Rule == "placeholder-left" {
						placeholders++
						continue
					}
					t.Errorf("%s kind %d (--spec %s): %s %s %s: %s", tree, k, opt, d.File, d.Severity, d.Rule, d.Message)
				}
				if placeholders < 4 {
					t.Errorf("%s kind %d: %d placeholder findings; init leaves TODO: in pack.json, LICENSE and README", tree, k, placeholders)
				}
			}
			raw, err := pk.ReadFile("pack.json")
			if err != nil {
				t.Fatal(err)
			}
			doc, err := jsonpos.Parse(raw)
			if err != nil {
				t.Fatal(err)
			}
			root := doc.Root
			if got := spec.TreeOf(root); got != tree {
				t.Errorf("%s scaffold is judged %s by its engine range", tree, got)
			}
			if err := sign.CheckV2(root); tree == spec.V2 && err != nil {
				t.Errorf("sign --spec v2 refuses the v2 scaffold: %v", err)
			}
			if _, err := Create(Options{Dir: dir, Name: name, Kind: k}); err == nil {
				t.Error("second init overwrote the pack")
			}
		}
	}
	if _, err := Create(Options{Dir: t.TempDir(), Name: "Core.x"}); err == nil {
		t.Error("bad name accepted")
	}
}

// TestNameAndDir: `wop pack init NAME` takes the name as its argument; DIR
// --name NAME still works; the name given twice, differently, is refused.
func TestNameAndDir(t *testing.T) {
	tests := []struct {
		arg, flag, name, dir, err string
	}{
		{"community.you.foo", "", "community.you.foo", "community.you.foo", ""},
		{"", "community.you.foo", "community.you.foo", "community.you.foo", ""},
		{"tools", "vendor.acme.tools", "vendor.acme.tools", "tools", ""},
		{"community.you.foo", "community.you.foo", "community.you.foo", "community.you.foo", ""},
		{"packs/community.you.bar", "community.you.foo", "community.you.foo", "packs/community.you.bar", ""},
		{"community.you.bar", "community.you.foo", "", "", `given twice, "community.you.bar" and --name "community.you.foo"`},
		{"", "", "", "", "a pack name is required: wop pack init community.<you>.<pack>"},
	}
	for _, tt := range tests {
		name, dir, err := NameAndDir(tt.arg, tt.flag, "")
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("NameAndDir(%q, %q) err = %v, want %q", tt.arg, tt.flag, err, tt.err)
			}
			continue
		}
		if err != nil || name != tt.name || dir != tt.dir {
			t.Errorf("NameAndDir(%q, %q) = %q, %q, %v; want %q, %q", tt.arg, tt.flag, name, dir, err, tt.name, tt.dir)
		}
	}
}
