package root

import (
	"slices"
	"strings"
	"testing"

	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/invocation"
)

// TestInvocationKnowsEveryCommand: invocation.Commands, by which prose's
// command lines are found ("wop pack build"), lists every top-level
// command, so a new one is rewritten for npx users too.
func TestInvocationKnowsEveryCommand(t *testing.T) {
	cmd := NewCmd(&cli.Env{Getenv: func(string) string { return "" }})
	known := strings.Fields(invocation.Commands)
	for _, c := range cmd.Commands() {
		if !slices.Contains(known, c.Name()) {
			t.Errorf("invocation.Commands lacks %q", c.Name())
		}
	}
}
