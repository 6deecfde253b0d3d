//go:build unix

package build

import "syscall"

// umask sets the process's file mode mask and returns the old one, so that
// TestReproducible builds under two masks.
func umask(mask int) int { return syscall.Umask(mask) }

// mkfifo makes a named pipe at path, a source file swapped for one.
func mkfifo(path string) error { return syscall.Mkfifo(path, 0o644) }
