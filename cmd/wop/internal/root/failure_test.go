package root

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/wop-cli/wop/cmd/wop/internal/cli"
)

// TestPanicIsAnInternalError: a bug exits 70 with a request to report it,
// never 1 (findings).
func TestPanicIsAnInternalError(t *testing.T) {
	cmd := &cobra.Command{Use: "x", SilenceErrors: true, RunE: func(_ *cobra.Command, args []string) error {
		return fmt.Errorf("unreachable: %s", args[3]) // index out of range: a real bug's panic
	}}
	err := execute(t.Context(), cmd)
	if code := cli.ExitCode(err); code != cli.ExitInternal || code == cli.ExitFindings {
		t.Errorf("exit %d, want %d", code, cli.ExitInternal)
	}
	if err == nil || !strings.Contains(err.Error(), "this is a bug in wop") || !strings.Contains(err.Error(), "failure_test.go") {
		t.Errorf("message %v lacks the plea or the stack", err)
	}
}

// TestInterruptedExits130: once Ctrl-C cancelled the context, whatever the
// command returns, wop exits 130.
func TestInterruptedExits130(t *testing.T) {
	ctx, cancel := context.WithCancelCause(t.Context())
	cancel(cli.ErrInterrupted)
	code, _, errOut := runWith(t, ctx, t.TempDir(), nil, "pack", "lint", t.TempDir())
	if code != cli.ExitInterrupted || !strings.Contains(errOut, "wop: interrupted") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}
