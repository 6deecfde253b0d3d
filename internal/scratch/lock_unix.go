//go:build unix

package scratch

import (
	"io/fs"
	"os"
	"syscall"
)

// lock takes an exclusive flock on f; wait false fails at once when
// another process holds it.
func lock(f *os.File, wait bool) error {
	how := syscall.LOCK_EX
	if !wait {
		how |= syscall.LOCK_NB
	}
	return syscall.Flock(int(f.Fd()), how)
}

// openNoFollow opens path for locking, refusing a symbolic link put in
// its place since it was listed.
func openNoFollow(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
}

func ownedByMe(info fs.FileInfo) bool {
	st, ok := info.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid()
}
