//go:build unix

package stage

import (
	"errors"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/wop-cli/wop/internal/safefile"
)

// TestPackageJSONFIFO: a FIFO as the checkout's package.json fails at once
// instead of hanging publish --stage.
func TestPackageJSONFIFO(t *testing.T) {
	root := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(root, "package.json"), 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	done := make(chan error, 1)
	go func() { _, err := packageScripts(root); done <- err }()
	select {
	case err := <-done:
		if !errors.Is(err, safefile.ErrNotRegular) {
			t.Errorf("packageScripts = %v, want not a regular file", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("reading a FIFO package.json hung")
	}
}
