package lint

import (
	"slices"
	"testing"
)

// TestEnforcedRules: what a registry refuses is enforced (what publish
// --no-lint still checks), the former guard list included.
func TestEnforcedRules(t *testing.T) {
	want := []string{
		"json-invalid", "manifest-schema", // the trial: an ignore published an invalid manifest
		"system-prompt-xor", "skill-profile-violation", "agent-id-host-namespace", // agents[] schema failures reported by their own rules
		"placeholder-left", "private-key-in-pack", "symlink-in-pack", "path-unsafe", // the guard before
		"archive-unsafe-path", "archive-link", "archive-special-file", "archive-duplicate-entry", "archive-entry-too-large",
	}
	got := All().EnforcedIDs()
	for _, id := range want {
		if r := Lookup(id); !slices.Contains(got, id) || r == nil || !r.Enforced {
			t.Errorf("%s is not enforced", id)
		}
	}
	for _, id := range got {
		if r := Lookup(id); r == nil || r.Deprecated != "" {
			t.Errorf("enforced %s is no current rule", id)
		}
	}
	if r := Lookup("license-not-spdx"); slices.Contains(got, "license-not-spdx") || r == nil || r.Enforced {
		t.Error("license-not-spdx, a style rule, is enforced or gone")
	}
}
