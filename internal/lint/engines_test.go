package lint

import (
	"slices"
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/spec"
	"github.com/wop-cli/wop/internal/tarball"
)

// TestEnginesUnboundedMessage: engines-range-unbounded tells a pack
// linted against protocol 1 to write the ceiling its range already has;
// against protocol 2 the range is v2-engine-range's (one mistake, one
// finding).
func TestEnginesUnboundedMessage(t *testing.T) {
	manifest := `{"name": "community.acme.demo", "version": "1.0.0", "kind": "node-pack", "engines": {"openwop": ">=1.1.0"}}`
	files := []ExampleFile{{"pack.json", manifest}}
	ds := lintExampleWith(t, files, tarball.DefaultLimits, "engines-range-unbounded", Options{Spec: spec.V1})
	if want := `write the ceiling it has ("<2.0.0", the fix)`; len(ds) != 1 || !strings.Contains(ds[0].Message, want) {
		t.Errorf("v1: %v, want one finding saying %q", ds, want)
	}
	rules := rulesOf(lintExampleWith(t, files, tarball.DefaultLimits, "", Options{Spec: spec.V2}))
	if !slices.Contains(rules, "v2-engine-range") || slices.Contains(rules, "engines-range-unbounded") {
		t.Errorf("v2: findings of %v, want v2-engine-range's and not engines-range-unbounded's", rules)
	}
}
