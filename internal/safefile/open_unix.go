//go:build unix

package safefile

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// openNoFollow opens path read-only and non-blocking, refusing a final
// symbolic link unless follow.
func openNoFollow(path string, follow bool) (*os.File, error) {
	flags := os.O_RDONLY | syscall.O_NONBLOCK | syscall.O_CLOEXEC
	if !follow {
		flags |= syscall.O_NOFOLLOW
	}
	return os.OpenFile(path, flags, 0)
}

// isLinkRefusal recognises O_NOFOLLOW's refusal of a link (ELOOP; some BSDs
// say EMLINK).
func isLinkRefusal(err error) bool {
	return errors.Is(err, syscall.ELOOP) || errors.Is(err, syscall.EMLINK)
}

func devIno(info fs.FileInfo) (uint64, uint64) {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Dev), uint64(st.Ino) // widths differ by platform
	}
	return 0, 0
}

// OwnerUID returns the owner of a listed file; ok is false where unknown.
func OwnerUID(info fs.FileInfo) (uid int, ok bool) {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return int(st.Uid), true
	}
	return 0, false
}
