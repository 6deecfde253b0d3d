package releasecheck

import (
	"context"
	"errors"
	"testing"

	"github.com/wop-cli/wop/internal/exitcode"
	"github.com/wop-cli/wop/internal/lint"
	"github.com/wop-cli/wop/internal/lintrun"
	"github.com/wop-cli/wop/internal/tarball"
)

// TestLintOnePack: --against compares exactly one pack, a usage error otherwise.
func TestLintOnePack(t *testing.T) {
	targets := []lintrun.Target{{Display: "a"}, {Display: "b"}}
	_, err := Lint{}.Verdict(context.Background(), targets, make([]lint.Job, 2), make([]tarball.Limits, 2))
	var ue *exitcode.UsageError
	if !errors.As(err, &ue) || err.Error() != "--against compares one pack with its previous release; 2 packs given" {
		t.Fatalf("err = %v, want the one-pack usage error", err)
	}
}
