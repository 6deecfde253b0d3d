package root

import (
	"context"
	"strings"
	"testing"

	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/registry/registrytest"
)

// TestLoginStatusExitCodes pins `wop login --status` and `wop logout` exit
// codes: accepted 0, no token or refused 4, unreachable 3, bad URL 2.
func TestLoginStatusExitCodes(t *testing.T) {
	srv := registrytest.New(token)
	t.Cleanup(srv.Close)
	tests := []struct {
		name string
		vars map[string]string
		args []string
		code int
	}{
		{"accepted", map[string]string{"WOP_TOKEN": token}, []string{"login", "--status", "--registry", srv.URL}, cli.ExitOK},
		{"refused", map[string]string{"WOP_TOKEN": "nope"}, []string{"login", "--status", "--registry", srv.URL}, cli.ExitAuth},
		{"no token", nil, []string{"login", "--status", "--registry", srv.URL}, cli.ExitAuth},
		{"from WOP_REGISTRY", map[string]string{"WOP_TOKEN": token, "WOP_REGISTRY": srv.URL}, []string{"login", "--status"}, cli.ExitOK},
		{"unreachable", map[string]string{"WOP_TOKEN": token}, []string{"login", "--status", "--registry", "http://127.0.0.1:1"}, cli.ExitNetwork},
		{"bad url", nil, []string{"logout", "--registry", "ftp://x"}, cli.ExitUsage},
		{"no registry", nil, []string{"login"}, cli.ExitUsage},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runWith(t, context.Background(), t.TempDir(), tt.vars, tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d; stderr: %s", code, tt.code, errOut)
			}
			if tok := tt.vars["WOP_TOKEN"]; tok != "" && strings.Contains(out+errOut, tok) {
				t.Errorf("token printed:\n%s%s", out, errOut)
			}
		})
	}
}
