package lint

import (
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/tarball"
)

// TestRoleUnknownGuess: role-unknown names the known role a misspelt one
// is near only when no other is as near ("reate" is two edits from both
// gate and read).
func TestRoleUnknownGuess(t *testing.T) {
	for _, tc := range []struct{ role, want string }{
		{"reat", `did you mean "read"?`},
		{"reate", "name the role that says what the node does"},
	} {
		manifest := `{"name": "community.acme.demo", "version": "1.0.0", "kind": "node-pack", "nodes": [{"typeId": "community.acme.demo.x", "role": "` + tc.role + `"}]}`
		ds := lintExample(t, []ExampleFile{{"pack.json", manifest}}, tarball.DefaultLimits, "role-unknown")
		if len(ds) != 1 || !strings.Contains(ds[0].Message, tc.want) {
			t.Errorf("role %q: %v, want one finding saying %q", tc.role, ds, tc.want)
		}
	}
}
