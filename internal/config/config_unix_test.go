//go:build unix

// FIFOs and /dev/zero are Unix's: these tests are not compiled elsewhere.

package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wop-cli/wop/internal/safefile"
)

func TestLoadRefusesFIFOAndDevices(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "zero.yaml")
	os.Symlink("/dev/zero", zero)
	big := filepath.Join(dir, "big.yaml")
	os.WriteFile(big, []byte("# "+strings.Repeat("x", MaxSize)), 0o644)
	for _, p := range []string{fifo, zero, big} {
		done := make(chan error, 1)
		go func() {
			_, err := Load(p, Options{})
			done <- err
		}()
		select {
		case err := <-done:
			var tl *safefile.TooLargeError
			if !errors.Is(err, safefile.ErrNotRegular) && !errors.As(err, &tl) {
				t.Errorf("%s: %v", filepath.Base(p), err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: Load blocked", filepath.Base(p))
		}
	}
}
