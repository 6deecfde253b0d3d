//go:build unix

package credentials

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/wop-cli/wop/internal/safefile"
)

// A FIFO or a huge file where the credentials file belongs fails at once
// instead of hanging or ballooning wop.
func TestHostileCredentialsFileIsRefused(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	done := make(chan error, 1)
	go func() { _, err := Token(fifo, "https://reg.acme.dev"); done <- err }()
	select {
	case err := <-done:
		if !errors.Is(err, safefile.ErrNotRegular) {
			t.Errorf("FIFO: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("reading a FIFO as the credentials file hung")
	}
	big := filepath.Join(dir, "big.json")
	if err := os.WriteFile(big, make([]byte, maxSize+1), 0o600); err != nil {
		t.Fatal(err)
	}
	var tooLarge *safefile.TooLargeError
	if _, err := Token(big, "https://reg.acme.dev"); !errors.As(err, &tooLarge) {
		t.Errorf("oversized file: %v", err)
	}
}
