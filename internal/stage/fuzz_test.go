package stage

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzCheckoutDocuments: the checkout's package.json and version manifests
// are read from a clone the user trusts only so far; any bytes give an
// answer or an error, never a panic.
func FuzzCheckoutDocuments(f *testing.F) {
	f.Add([]byte(`{"scripts":{"build:index":"node x.mjs","check":"bash c.sh"}}`))
	f.Add([]byte(`{"integrity":"sha256-AAAA"}`))
	f.Add([]byte(`{"scripts":null}`))
	f.Add([]byte(`[`))
	f.Fuzz(func(t *testing.T, data []byte) {
		root := t.TempDir()
		if err := os.WriteFile(filepath.Join(root, "package.json"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		if steps, err := generators(root, "v1"); err == nil && len(steps) == 0 {
			t.Fatal("no error and no generators")
		}
		if _, _, err := gate(root); err != nil {
			return
		}
		_, _ = integrityOf(data)
	})
}
