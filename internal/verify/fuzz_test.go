package verify

import (
	"bytes"
	"os"
	"testing"
)

// FuzzServedManifest: a registry's <version>.json is untrusted input. Any
// bytes give an error or a report, never a panic, and a report that
// passes has no failed check.
func FuzzServedManifest(f *testing.F) {
	_, served, fx := buildWith(f, manifestV2)
	sig, _ := os.ReadFile(fx.res.Signature)
	f.Add(served)
	f.Add(bytes.Replace(served, []byte("\n}\n"), []byte(`,"tarballUrl":"/v1/x","yanked":"no"}`), 1))
	_, served1, _ := buildWith(f, manifest)
	f.Add(served1)
	f.Add([]byte(`{"engines":{"openwop":">=2 <3.0.0"},"signing":{"keyId":1}}`))
	f.Fuzz(func(t *testing.T, served []byte) {
		r, err := ServedManifest(served, sig, Options{Key: fx.pub})
		if err != nil {
			return
		}
		if r.OK() && failed(r, "signature") != "" {
			t.Fatal("a report with a failed check says OK")
		}
	})
}
