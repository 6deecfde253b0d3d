package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wop-cli/wop/internal/pack"
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
	if took := cpuTime() - start; took > 2*time.Second*raceSlowdown {
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

// TestUnreadableRefIsAFinding: a referenced prompt that cannot be read (here
// replaced since the pack was listed; without root, also a mode-000 file)
// is a finding naming it, not a clean lint and a failing build.
func TestUnreadableRefIsAFinding(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("pack.json", `{"name":"community.acme.demo","version":"1.0.0","engines":{"openwop":">=1.1.0 <2.0.0"},
	  "runtime":{"language":"remote","entry":"pack.json"},
	  "agents":[{"agentId":"community.acme.demo.a","persona":"A","modelClass":"general","systemPromptRef":"prompts/a.md"}]}`)
	write("prompts/a.md", "Be brief.\n")
	pk, err := pack.Load(dir, tarball.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	write("prompts/a.md", "Be much briefer.\n")
	ds, err := Run(pk, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, d := range ds {
		found = found || d.Rule == "ref-not-file" && strings.Contains(d.Message, `"prompts/a.md": the file cannot be read`)
	}
	if !found {
		t.Errorf("no finding for the unreadable prompt in %v", ds)
	}
}
