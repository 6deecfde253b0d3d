//go:build !unix

package safefile

import (
	"io/fs"
	"os"
)

// openNoFollow opens path read-only. Without O_NOFOLLOW the link check is an
// Lstat before the open; the fstat after it still refuses anything that is
// not a regular file.
func openNoFollow(path string, follow bool) (*os.File, error) {
	if !follow {
		if info, err := os.Lstat(path); err == nil && info.Mode()&fs.ModeSymlink != 0 {
			return nil, errLink
		}
	}
	return os.Open(path)
}

var errLink = &fs.PathError{Op: "open", Err: fs.ErrInvalid}

func isLinkRefusal(err error) bool { return err == errLink }

func devIno(fs.FileInfo) (uint64, uint64) { return 0, 0 }

// OwnerUID returns the owner of a listed file; ok is false where unknown.
func OwnerUID(fs.FileInfo) (int, bool) { return 0, false }
