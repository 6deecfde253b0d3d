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
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		out, _, err := ToV2(src)
		if err != nil {
			return
		}
		if !json.Valid(out) {
			t.Fatalf("migrated %q to invalid JSON %q", src, out)
		}
		again, _, err := ToV2(out)
		if err != nil || string(again) != string(out) {
			t.Fatalf("not idempotent: %q then %q (%v)", out, again, err)
		}
	})
}
