//go:build unix

// FIFOs are Unix's: this test is not compiled elsewhere.

package lintrun

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

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
