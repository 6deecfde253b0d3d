//go:build unix

package jsonedit

import (
	"errors"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/wop-cli/wop/internal/safefile"
)

// TestEditFileRefusesFIFO: a FIFO where pack.json should be fails at once
// (`wop pack bump`, `lint --fix`) instead of hanging.
func TestEditFileRefusesFIFO(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pack.json")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := EditFile(path, func(b []byte) ([]byte, error) { return b, nil })
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, safefile.ErrNotRegular) {
			t.Errorf("EditFile(FIFO) = %v, want not a regular file", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("EditFile on a FIFO hung")
	}
}
