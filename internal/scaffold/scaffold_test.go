package scaffold

import (
	"path/filepath"
	"testing"

	"github.com/wop-cli/wop/internal/lint"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/tarball"
)

// TestScaffoldsLintClean: a new pack has no finding at all, info included.
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
		for _, d := range ds {
			t.Errorf("kind %d: %s %s %s: %s", k, d.File, d.Severity, d.Rule, d.Message)
		}
		if _, err := Create(Options{Dir: dir, Name: name, Kind: k}); err == nil {
			t.Error("second init overwrote the pack")
		}
	}
	if _, err := Create(Options{Dir: t.TempDir(), Name: "Core.x"}); err == nil {
		t.Error("bad name accepted")
	}
}
