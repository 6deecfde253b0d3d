package migrate

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFinish: unchanged says already v2; --diff prints a patch and writes
// nothing; otherwise pack.json is replaced and the change named.
func TestFinish(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pack.json")
	before, after := []byte("{\"a\": 1}\n"), []byte("{\"a\": 2}\n")
	if err := os.WriteFile(path, before, 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	same := &Result{Path: path, shown: "p/pack.json", Before: before, After: before}
	if n, err := same.Finish(false, &out, &errOut); n != 0 || err != nil || errOut.String() != "p/pack.json is already v2: nothing to change\n" {
		t.Errorf("unchanged: %d %v %q", n, err, errOut.String())
	}
	changed := &Result{Path: path, shown: "p/pack.json", Before: before, After: after}
	out.Reset()
	if _, err := changed.Finish(true, &out, &errOut); err != nil || !strings.Contains(out.String(), "+++ b/p/pack.json") {
		t.Errorf("diff: %v %q", err, out.String())
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, before) {
		t.Error("--diff wrote pack.json")
	}
	errOut.Reset()
	if _, err := changed.Finish(false, &out, &errOut); err != nil || errOut.String() != "migrated p/pack.json to v2\n" {
		t.Errorf("write: %v %q", err, errOut.String())
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, after) {
		t.Errorf("pack.json is %q", got)
	}
}
