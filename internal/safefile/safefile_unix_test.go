//go:build unix

// FIFOs and /dev/zero are Unix's: these tests are not compiled elsewhere.

package safefile

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

func TestReadRefuses(t *testing.T) {
	dir := t.TempDir()
	plain := write(t, dir, "plain", "12345")
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	zeroLink := filepath.Join(dir, "zero")
	if err := os.Symlink("/dev/zero", zeroLink); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink("plain", link); err != nil {
		t.Fatal(err)
	}
	var tooLarge *TooLargeError
	tests := []struct {
		name string
		path string
		opt  Options
		want func(error) bool
	}{
		{"at the cap", plain, Options{Max: 5}, func(err error) bool { return err == nil }},
		{"over the cap", plain, Options{Max: 4}, func(err error) bool { return errors.As(err, &tooLarge) && tooLarge.Size == 5 }},
		{"FIFO", fifo, Options{Max: 1 << 20, FollowLinks: true}, func(err error) bool { return errors.Is(err, ErrNotRegular) }},
		{"link to /dev/zero", zeroLink, Options{Max: 1 << 20, FollowLinks: true}, func(err error) bool { return errors.Is(err, ErrNotRegular) }},
		{"directory", dir, Options{Max: 1 << 20, FollowLinks: true}, func(err error) bool { return errors.Is(err, ErrNotRegular) }},
		{"link where none is allowed", link, Options{Max: 1 << 20}, func(err error) bool { return errors.Is(err, ErrNotRegular) }},
		{"link where one is allowed", link, Options{Max: 1 << 20, FollowLinks: true}, func(err error) bool { return err == nil }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			done := make(chan error, 1)
			go func() {
				_, err := Read(tt.path, tt.opt)
				done <- err
			}()
			select {
			case err := <-done:
				if !tt.want(err) {
					t.Errorf("got %v", err)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("read blocked")
			}
		})
	}
}
