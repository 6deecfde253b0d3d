package spec

import "strings"

// SplitPin splits a v2 chain node reference "core.ai.callPrompt@1.0.0" into
// the typeId and what follows the "@" ("" and false when there is no "@").
func SplitPin(ref string) (typeID, version string, hasVersion bool) {
	return strings.Cut(ref, "@")
}

// ExactVersion reports whether v is an exact X.Y.Z version of digits, the
// only pin v2.0 admits (workflow-chain-packs.md §Exact pins: no ranges, no
// partial versions). A part with a leading zero ("01.2.3") is no SemVer
// version (SemVer 2.0.0 §2), so no host resolves it.
func ExactVersion(v string) bool {
	parts := strings.Split(v, ".")
	if len(parts) != 3 {
		return false
	}
	for _, p := range parts {
		if p == "" || strings.Trim(p, "0123456789") != "" || len(p) > 1 && p[0] == '0' {
			return false
		}
	}
	return true
}
