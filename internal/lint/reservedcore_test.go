package lint

import (
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/catalog"
	"github.com/wop-cli/wop/internal/tarball"
)

// TestTypeIDReservedCoreHost: a core.* typeId the targeted host provides
// itself is that host's, and the finding names it as a host, not a pack.
func TestTypeIDReservedCoreHost(t *testing.T) {
	base := exampleCatalog(t, []ExampleFile{{"community.acme.other/pack.json", `{"name": "community.acme.other", "version": "1.0.0", "kind": "node-pack", "nodes": [{"typeId": "community.acme.other.x"}]}`}})
	h, err := catalog.ParseHost([]byte(`{"host": "acme-app", "nodeTypes": ["core.text.upper"]}`))
	if err != nil {
		t.Fatal(err)
	}
	manifest := `{"name": "community.acme.demo", "version": "1.0.0", "kind": "node-pack", "nodes": [{"typeId": "core.text.upper", "role": "pure"}]}`
	ds := lintExampleWith(t, []ExampleFile{{"pack.json", manifest}}, tarball.DefaultLimits, "typeid-reserved-core", Options{Catalog: catalog.WithHosts(base, h)})
	if len(ds) != 1 || !strings.Contains(ds[0].Message, "is registered by host acme-app itself") || strings.Contains(ds[0].Message, "depend on") {
		t.Errorf("%v, want one finding naming the host once, without asking to depend on a host", ds)
	}
}
