package lint

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/wop-cli/wop/internal/tarball"
)

// TestHugeSchemaLintsQuickly: a schema with 100k properties (the compiler's
// worst case: its time grows with the square of the subschemas) is refused
// with a finding instead of minutes of CPU.
func TestHugeSchemaLintsQuickly(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{`)
	for i := range 100000 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"p%d":{"type":"string"}`, i)
	}
	b.WriteString("}}")
	files := []ExampleFile{
		{"pack.json", `{"name":"community.acme.demo","version":"1.0.0","engines":{"openwop":">=1.1.0 <2.0.0"},
		  "runtime":{"language":"remote","entry":"pack.json"},
		  "agents":[{"agentId":"community.acme.demo.a","persona":"A","modelClass":"general","systemPrompt":"Hi.","handoff":{"taskSchemaRef":"schemas/big.json"}}]}`},
		{"schemas/big.json", b.String()},
	}
	start := cpuTime()
	ds := lintExample(t, files, tarball.DefaultLimits, "")
	if took := cpuTime() - start; took > 2*time.Second {
		t.Errorf("lint took %v of CPU", took)
	}
	var found bool
	for _, d := range ds {
		found = found || d.Rule == "schema-invalid" && strings.Contains(d.Message, "schema too large to check: 100002 subschemas, limit 10000")
	}
	if !found {
		t.Errorf("no schema-too-large finding in %v", ds)
	}
}
