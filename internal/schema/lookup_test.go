package schema

import (
	"slices"
	"testing"

	"github.com/wop-cli/wop/internal/spec"
)

// TestAt holds which subschemas apply at a pointer: through $defs, a $ref
// to another embedded document (v2's ids.schema.json too) and the
// combinators.
func TestAt(t *testing.T) {
	s, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	v1, _ := ForKind(spec.V1, "node")
	v2, _ := ForKind(spec.V2, "node")
	chain, _ := ForKind(spec.V1, "workflow-chain")
	for _, tc := range []struct {
		id   string
		path []string
		want string // a description's start, or an enum value; "" for no subschema
	}{
		{v1, []string{"agents", "3", "modelClass"}, "writing"},
		{v2, []string{"agents", "0", "modelClass"}, "writing"},
		{v1, []string{"nodes", "0", "role"}, "Semantic role"},
		{v2, []string{"agents", "0", "agentId"}, "Globally-unique"},
		{chain, []string{"chains", "0", "dag", "edges", "1", "triggerRule"}, "all_success"},
		{v1, []string{"peerDependenciesMeta", "any.peer", "optional"}, "When true"},
		{v1, []string{"nodes", "x", "role"}, ""},
		{v1, []string{"nosuch"}, ""},
		{"https://example.org/none.json", nil, ""},
	} {
		subs := s.At(tc.id, tc.path)
		if tc.want == "" {
			if len(subs) != 0 {
				t.Errorf("%s %v: %d subschemas, want none", tc.id, tc.path, len(subs))
			}
			continue
		}
		found := false
		for _, sub := range subs {
			d, _ := sub.Schema["description"].(string)
			enum, _ := sub.Schema["enum"].([]any)
			if len(d) >= len(tc.want) && d[:len(tc.want)] == tc.want || slices.Contains(enum, any(tc.want)) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s %v: no subschema says %q (%d found)", tc.id, tc.path, tc.want, len(subs))
		}
	}
}
