//go:build !unix

package build

import "errors"

// umask: Windows has no file mode mask; TestReproducible's builds then
// differ only in days, mtimes and creation orders.
func umask(int) int { return 0 }

// mkfifo: Windows has no named pipes in the file system (the test that
// swaps a file for one skips there).
func mkfifo(string) error { return errors.ErrUnsupported }
