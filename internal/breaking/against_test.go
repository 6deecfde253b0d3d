package breaking

import (
	"context"
	"errors"
	"testing"

	"github.com/wop-cli/wop/internal/exitcode"
	"github.com/wop-cli/wop/internal/lint"
	"github.com/wop-cli/wop/internal/lintrun"
	"github.com/wop-cli/wop/internal/tarball"
)

// TestReleaseCheckOnePack: --against compares exactly one pack, a usage error otherwise.
func TestReleaseCheckOnePack(t *testing.T) {
	targets := []lintrun.Target{{Display: "a"}, {Display: "b"}}
	_, err := ReleaseCheck{}.Verdict(context.Background(), targets, make([]lint.Job, 2), make([]tarball.Limits, 2))
	var ue *exitcode.UsageError
	if !errors.As(err, &ue) || err.Error() != "--against compares one pack with its previous release; 2 packs given" {
		t.Fatalf("err = %v, want the one-pack usage error", err)
	}
}

// TestReleaseRules: lint --against adds exactly the two verdict rules.
func TestReleaseRules(t *testing.T) {
	var ids []string
	for _, r := range ReleaseRules() {
		ids = append(ids, r.ID)
	}
	if len(ids) != 2 {
		t.Fatalf("ReleaseRules() = %v, want %s and %s", ids, RuleBumpInsufficient, RuleVersionMutated)
	}
}
