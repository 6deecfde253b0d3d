package schema

import (
	"testing"

	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/spec"
)

// BenchmarkFirstValidate is what a one-pack process pays to validate its
// manifest: a fresh Set, so every iteration parses and compiles the node
// manifest schema (with and without agents) as a new process does.
func BenchmarkFirstValidate(b *testing.B) {
	node, _ := ForKind(spec.V1, "node")
	head := `{"name":"community.acme.demo","version":"1.0.0","engines":{"openwop":">=1.1.0 <2.0.0"},`
	manifests := map[string]string{
		"nodes":  head + `"runtime":{"language":"javascript","entry":"index.mjs"},"nodes":[{"typeId":"community.acme.demo.x","version":"1.0.0","category":"data","role":"pure"}]}`,
		"agents": head + `"runtime":{"language":"remote","entry":"pack.json"},"agents":[{"agentId":"community.acme.demo.a","persona":"A","modelClass":"general","systemPrompt":"x"}]}`,
	}
	for name, src := range manifests {
		d, err := jsonpos.Parse([]byte(src))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				s, err := Load()
				if err != nil {
					b.Fatal(err)
				}
				if _, err := s.Validate(node, d.Root.Interface()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
