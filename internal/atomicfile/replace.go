package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// ErrReadOnly is a file Replace will not rewrite: the author made it
// read-only (no owner write bit), and a rename would replace it anyway,
// mode and all, as if the protection were not there.
var ErrReadOnly = errors.New("read-only")

// Replace writes data over the existing file at path as Write does,
// keeping the file's permission bits: how bump, lint --fix and migrate
// rewrite a pack's files. A path that does not exist is an error, and so
// is a read-only file (see CheckWritable); the caller names the file.
func Replace(path string, data []byte) error {
	info, err := os.Stat(path)
	if err != nil {
		return err
	}
	if err := checkMode(info.Mode()); err != nil {
		return err
	}
	return Write(path, data, info.Mode().Perm())
}

// CheckWritable refuses a file Replace would refuse, so a command that
// rewrites several files can check them all before writing any. The mode
// bits decide, not access(2): root may write anything, yet a file its
// owner marked read-only is still not to be rewritten.
func CheckWritable(path string) error {
	info, err := os.Stat(path)
	if err != nil {
		return err
	}
	return checkMode(info.Mode())
}

// checkMode's error does not repeat the path: every caller says "write
// FILE: ..." already, naming it as the user gave it.
func checkMode(mode fs.FileMode) error {
	if mode.Perm()&0o200 != 0 {
		return nil
	}
	return fmt.Errorf("%w (mode %04o): wop does not rewrite a file made read-only; make it writable (chmod u+w) and run again", ErrReadOnly, mode.Perm())
}
