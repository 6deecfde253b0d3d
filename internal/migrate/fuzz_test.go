package migrate

import (
	"encoding/json"
	"testing"
)

// FuzzToV2: any input either is refused or migrates to valid JSON, and
// migrating the output again changes nothing more (idempotent).
func FuzzToV2(f *testing.F) {
	for _, s := range []string{
		`{"engines":{"openwop":">=1.1.0 <2.0.0"},"signing":{"method":"manual"},"agents":[]}`,
		`{"kind":"node","engines":{"openwop":">=1"},"peerDependencies":{"host.aiEnvelope.await":"x","openwop.agents.memoryBackends":"y"},"peerDependenciesMeta":{"agents":{"facets":["goals"]}}}`,
		`{"peerDependencies":{"host.webSearch":"x","host.webResearch":"x"},"peerDependenciesMeta":{"host.webSearch":1}}`,
		`[]`, `{"engines":3}`,
		`{"chains":[{"dag":{"nodes":[{"typeId":"a.b"},{"typeId":"a.b@^1"},{"typeId":"c.d@1"}]},"subChains":[{"ref":{"packName":"p","version":"^2"}},{"ref":"s"}]}]}`,
	} {
		f.Add([]byte(s))
	}
	opt := Options{Catalog: fakeCatalog{nodes: map[string]string{"a.b": "1.2.3", "c.d": "1"}, packs: map[string]string{"p": "2.0.1"}}}
	f.Fuzz(func(t *testing.T, src []byte) {
		out, _, err := ToV2(src, opt)
		if err != nil {
			return
		}
		if !json.Valid(out) {
			t.Fatalf("migrated %q to invalid JSON %q", src, out)
		}
		again, _, err := ToV2(out, opt)
		if err != nil || string(again) != string(out) {
			t.Fatalf("not idempotent: %q then %q (%v)", out, again, err)
		}
	})
}
