package stage

import (
	"os"
	"path/filepath"
	"strings"
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

// FuzzOutputWatcher: a gate's output is arbitrary bytes in arbitrary
// chunks. Whatever arrives, what is kept stays bounded, the shown tail is
// a suffix of the output, and nothing panics.
func FuzzOutputWatcher(f *testing.F) {
	f.Add([]byte("[v2 1/9] check\npack_engine_unsupported\n"), uint8(3))
	f.Add([]byte("\x1b]52;c;x\x07\r\n\xff\xfe"), uint8(1))
	f.Fuzz(func(t *testing.T, out []byte, chunk uint8) {
		w := &outputWatcher{}
		size := int(chunk) + 1
		for rest := out; len(rest) > 0; rest = rest[min(size, len(rest)):] {
			w.Write(rest[:min(size, len(rest))])
		}
		w.finish()
		_ = w.hints("")
		tail := w.lastLines()
		if len(tail) > tailBytes || !strings.HasSuffix(string(out), tail) {
			t.Fatalf("tail %q of %q", tail, out)
		}
		if len(w.line) > maxLine || w.hintText.Len() > maxHintText {
			t.Fatalf("kept %d line bytes, %d hint bytes", len(w.line), w.hintText.Len())
		}
	})
}
