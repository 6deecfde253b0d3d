package lint

import (
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/tarball"
)

// TestTextInternalReferenceNodePack: in a node pack, host API paths are
// kept (developers read them) but design-record numbers still fire, in the
// same text.
func TestTextInternalReferenceNodePack(t *testing.T) {
	manifest := `{
  "name": "community.acme.demo",
  "version": "1.0.0",
  "description": "HTTP nodes (RFC 0076) over ctx.http.safeFetch.",
  "license": "Apache-2.0",
  "engines": {"openwop": ">=1.1.0 <2.0.0"},
  "runtime": {"language": "javascript", "entry": "index.mjs", "format": "esm"},
  "nodes": [
    {"typeId": "community.acme.demo.get", "version": "1.0.0", "role": "side-effect",
     "description": "Fetches a URL with ctx.http.safeFetch and ctx.db.kv.get (ADR 0198)."}
  ]
}`
	files := []ExampleFile{{"pack.json", manifest}, {"index.mjs", "export const nodes = {};\n"}}
	opt := Options{Severities: map[string]diag.Severity{"text-internal-reference": diag.Warning}}
	got := lintExampleWith(t, files, tarball.DefaultLimits, "text-internal-reference", opt)
	if len(got) != 2 {
		t.Fatalf("got %d findings, want 2: %+v", len(got), got)
	}
	for _, d := range got {
		if strings.Contains(d.Message, "ctx.") {
			t.Errorf("a host API path in a node pack is reported: %s", d.Message)
		}
		if !strings.Contains(d.Message, "RFC 0076") && !strings.Contains(d.Message, "ADR 0198") {
			t.Errorf("finding names no design record: %s", d.Message)
		}
	}
}
