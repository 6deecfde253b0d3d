package root

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wop-cli/wop/cmd/wop/internal/cli"
)

// TestReadOnlyPackIsNotRewritten: migrate and lint --fix refuse a pack.json
// made read-only (0444) instead of replacing it by rename, mode and all;
// the message names the file and says it is read-only, the exit is 1 (a
// file that cannot be written), and the file keeps its bytes and mode.
// Mode bits decide, so this holds when the tests run as root.
func TestReadOnlyPackIsNotRewritten(t *testing.T) {
	const manifest = `{"name":"community.acme.demo","version":"1.0.0","engines":{"openwop":">=1.1.0"},"runtime":{"language":"remote","entry":"pack.json"},` +
		`"agents":[{"agentId":"community.acme.demo.a","persona":"A","modelClass":"general","systemPrompt":"hi"}]}`
	for _, args := range [][]string{{"pack", "migrate", "--to", "v2", "demo"}, {"pack", "lint", "--fix", "demo"}} {
		t.Run(args[1], func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "demo", "pack.json")
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(manifest), 0o444); err != nil {
				t.Fatal(err)
			}
			code, _, errOut := run(t, dir, args...)
			if code != cli.ExitFindings || !strings.Contains(errOut, "pack.json: read-only (mode 0444): wop does not rewrite a file made read-only") {
				t.Errorf("exit %d, stderr %q; want 1 and a message naming %s as read-only", code, errOut, p)
			}
			got, _ := os.ReadFile(p)
			info, err := os.Stat(p)
			if err != nil || string(got) != manifest || info.Mode().Perm() != 0o444 {
				t.Errorf("pack.json changed: %q, %v", got, info.Mode())
			}
		})
	}
}
