//go:build !unix

package scratch

import (
	"errors"
	"io/fs"
	"os"
)

// Without flock, an entry cannot be proven unused: lock takes nothing, and
// Sweep removes nothing (ownedByMe is false).
func lock(f *os.File, wait bool) error {
	if !wait {
		return errors.ErrUnsupported
	}
	return nil
}

func openNoFollow(path string) (*os.File, error) { return os.Open(path) }

func ownedByMe(fs.FileInfo) bool { return false }
