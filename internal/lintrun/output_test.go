package lintrun

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestCheckOutput: --output naming a directory or a pack's own source is a
// usage error before lint runs; a report file name is fine.
func TestCheckOutput(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "dist"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := &Env{WorkDir: dir}
	for output, want := range map[string]string{
		"":                           "",
		"wop.sarif":                  "",
		"reports/lint.json":          "",
		"dist":                       "is a directory",
		"pack.json":                  "would replace a pack's source",
		"packs/a/pack.json":          "would replace a pack's source",
		".wop.yaml":                  "would replace a pack's source",
		"agents/researcher.agf.yaml": "would replace a pack's source",
	} {
		err := CheckOutput(env, "--output", output, "wop.sarif")
		var usage *InputError
		switch {
		case want == "" && err != nil:
			t.Errorf("%q: %v", output, err)
		case want != "" && (!errors.As(err, &usage) || !strings.Contains(err.Error(), want)):
			t.Errorf("%q: %v, want an input error (exit 2) saying %q", output, err, want)
		}
	}
}

// TestWriteOutputIntoFIFO: --output naming a pipe or device (/dev/stdout)
// writes into it; renaming a file over it would replace the device itself.
func TestWriteOutputIntoFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "report")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	// The reader opens first, without blocking, so the writer's open does
	// not wait and a small report fits in the pipe's buffer.
	r, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := WriteOutput(fifo, "--output", []byte("{}\n")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4096)
	if n, _ := r.Read(buf); !strings.Contains(string(buf[:n]), "{") {
		t.Errorf("the reader got %q", buf[:n])
	}
	if info, err := os.Lstat(fifo); err != nil || info.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced: %v %v", info.Mode(), err)
	}
}
