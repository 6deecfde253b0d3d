package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/lintrun"
	"github.com/wop-cli/wop/internal/testutil/golden"
)

// TestExitCode pins how each kind of error maps to an exit code, wrapped
// or not; an error nothing classifies exits 1 (see ExitFindings), never 70.
func TestExitCode(t *testing.T) {
	plain := errors.New("write dist/x.tgz: no space left on device")
	tests := []struct {
		name string
		err  error
		want int
	}{
		{"nil", nil, ExitOK},
		{"findings", ErrFindings, ExitFindings},
		{"wrapped findings", fmt.Errorf("lint: %w", ErrFindings), ExitFindings},
		{"unclassified", plain, ExitFindings},
		{"unclassified with hint", WithHint(plain, "free some space"), ExitFindings},
		{"usage", Usagef("no pack.json in %s", "x"), ExitUsage},
		{"wrapped usage with hint", WithHint(fmt.Errorf("load: %w", Usagef("bad")), "h"), ExitUsage},
		{"lint's input error", fmt.Errorf("x: %w", &lintrun.InputError{Err: plain}), ExitUsage},
		{"network", &ExitError{Code: ExitNetwork, Err: plain}, ExitNetwork},
		{"auth", &ExitError{Code: ExitAuth, Err: plain}, ExitAuth},
		{"conflict", &ExitError{Code: ExitConflict, Err: plain}, ExitConflict},
		{"panic", &InternalError{Err: errors.New("panic: boom")}, ExitInternal},
		{"panic wrapping a usage error", &InternalError{Err: Usagef("x")}, ExitInternal},
		{"interrupted", ErrInterrupted, ExitInterrupted},
		{"interrupted wins", fmt.Errorf("%w: %w", ErrInterrupted, ErrFindings), ExitInterrupted},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ExitCode(tt.err); got != tt.want {
				t.Errorf("ExitCode(%v) = %d, want %d", tt.err, got, tt.want)
			}
		})
	}
}

// TestExitCodeTable checks the table lists each code once, in order, and
// keeps docs/exit-codes.md in step with it.
func TestExitCodeTable(t *testing.T) {
	var b strings.Builder
	b.WriteString("# Exit codes\n\nGenerated from `cmd/wop/internal/cli/exit.go` (`go test ./cmd/wop/internal/cli -update`); `wop help exit-codes` prints the same.\n\n")
	b.WriteString("| code | meaning |\n|---|---|\n")
	last := -1
	for _, row := range ExitCodeTable() {
		if row.Code <= last {
			t.Errorf("code %d after %d: the table must be in increasing order, each code once", row.Code, last)
		}
		last = row.Code
		fmt.Fprintf(&b, "| %d | %s |\n", row.Code, strings.ReplaceAll(row.Meaning, "|", "\\|"))
	}
	b.WriteString("\nAn error no other code classifies exits 1: it is not a bug in wop, and 70 asks for a bug report.\n" +
		"Exit 70 is never 1, so CI can tell a bug in wop from a failed check.\n")
	path := filepath.Join("..", "..", "..", "..", "docs", "exit-codes.md")
	if golden.Update() {
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(path)
	if err != nil || string(got) != b.String() {
		t.Errorf("docs/exit-codes.md is stale: go test ./cmd/wop/internal/cli -update")
	}
}
