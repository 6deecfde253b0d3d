package scaffold

import (
	"path/filepath"
	"testing"

	"github.com/wop-cli/wop/internal/lint"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/tarball"
)

// TestScaffoldsLintClean: a new pack has no finding but its placeholders
// (placeholder-left warnings, one per TODO: the author must fill in).
func TestScaffoldsLintClean(t *testing.T) {
	for _, k := range []Kind{Agent, Node} {
		name := "community.alice.summaries"
		dir := filepath.Join(t.TempDir(), name)
		if _, err := Create(Options{Dir: dir, Name: name, Kind: k}); err != nil {
			t.Fatal(err)
		}
		pk, err := pack.Load(dir, tarball.DefaultLimits)
		if err != nil {
			t.Fatal(err)
		}
		ds, err := lint.Run(pk, lint.Options{})
		if err != nil {
			t.Fatal(err)
		}
		placeholders := 0
		for _, d := range ds {
			if d.Rule == "placeholder-left" {
				placeholders++
				continue
			}
			t.Errorf("kind %d: %s %s %s: %s", k, d.File, d.Severity, d.Rule, d.Message)
		}
		if placeholders < 4 {
			t.Errorf("kind %d: %d placeholder findings; init leaves TODO: in pack.json, LICENSE and README", k, placeholders)
		}
		if _, err := Create(Options{Dir: dir, Name: name, Kind: k}); err == nil {
			t.Error("second init overwrote the pack")
		}
	}
	if _, err := Create(Options{Dir: t.TempDir(), Name: "Core.x"}); err == nil {
		t.Error("bad name accepted")
	}
}
