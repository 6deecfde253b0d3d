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
// its place since it was listed, and anything but a folder or regular file
// (without blocking: a FIFO swapped in must not hang the sweep).
func openNoFollow(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	if info, err := f.Stat(); err != nil || !(info.IsDir() || info.Mode().IsRegular()) {
		f.Close()
		return nil, fs.ErrInvalid
	}
	return f, nil
}

func ownedByMe(info fs.FileInfo) bool {
	st, ok := info.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid()
}
