// Package atomicfile writes files so that no reader, and no interrupted
// run, ever sees half of one: a temporary file in the same directory,
// synced to disk, then a rename over the target, then a sync of the
// directory so the rename itself survives a crash. Set does the same for
// files that belong together.
package atomicfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/wop-cli/wop/internal/safefile"
)

// WriteFrom creates or replaces path with what fill writes (buffered), with
// mode perm. On any error the temporary file is removed and path is
// untouched.
func WriteFrom(path string, perm os.FileMode, fill func(io.Writer) error) error {
	return writeFile(path, perm, buffered(fill))
}

func writeFile(path string, perm os.FileMode, fill func(io.Writer) error) error {
	if err := checkReplaceable(path); err != nil {
		return err
	}
	tmp, err := writeTemp(path, perm, fill)
	if err != nil {
		return err
	}
	if err := checkDeadline(tmp, time.Now()); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return syncDir(filepath.Dir(path))
}

// ErrNotRegular means the target exists and is not a regular file.
var ErrNotRegular = errors.New("not a regular file")

// checkReplaceable refuses a target that exists and is not a regular file:
// renaming over a directory, FIFO, device or symbolic link would replace
// that thing itself (/dev/stdout, a link to a pack's manifest) with a file.
func checkReplaceable(path string) error {
	_, err := replaceable(path)
	return err
}

// replaceable is checkReplaceable, also saying whether path exists.
func replaceable(path string) (exists bool, err error) {
	info, err := os.Lstat(path)
	if err != nil {
		return false, nil // absent (or unreadable: the write itself will say why)
	}
	if info.Mode().IsRegular() {
		return true, nil
	}
	return true, &fs.PathError{Op: "replace", Path: path, Err: fmt.Errorf("%w (%s); wop only replaces regular files", ErrNotRegular, safefile.Kind(info.Mode()))}
}

// Write creates or replaces path with data.
func Write(path string, data []byte, perm os.FileMode) error {
	return writeFile(path, perm, bytesFill(data))
}

func bytesFill(data []byte) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	}
}

// writeTemp writes a complete, synced temporary file beside path and
// returns its name; on error nothing is left.
func writeTemp(path string, perm os.FileMode, fill func(io.Writer) error) (string, error) {
	f, err := createTemp(path, perm, fill)
	if err != nil {
		return "", err
	}
	if err := syncClose(f, path); err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}

// writeBuffer is the size of the buffer between a streaming fill and the
// temporary file. Writers such as compress/flate write a few hundred bytes
// at a time; unbuffered, each would be a write(2).
const writeBuffer = 64 << 10

// buffered is fill writing through a writeBuffer-byte buffer.
func buffered(fill func(io.Writer) error) func(io.Writer) error {
	return func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, writeBuffer)
		if err := fill(bw); err != nil {
			return err
		}
		return bw.Flush()
	}
}

// createTemp writes a temporary file beside path (named so a later run can
// tell when it is stale: see RemoveStaleTemps) with what fill writes and
// mode perm, and returns it open and not yet synced; on error nothing is
// left.
func createTemp(path string, perm os.FileMode, fill func(io.Writer) error) (f *os.File, err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), tempPattern(path, time.Now()))
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err = fill(tmp); err != nil {
		return nil, fmt.Errorf("write %s: %w", filepath.Base(path), err)
	}
	if err = tmp.Chmod(perm); err != nil {
		return nil, err
	}
	return tmp, nil
}

// syncClose syncs f, the temporary file for path, to disk and closes it.
// Without the sync, a crash soon
// after a rename can leave an empty file under the final name (delayed
// allocation).
func syncClose(f *os.File, path string) error {
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("sync %s: %w", filepath.Base(path), err)
	}
	return f.Close()
}

// syncDir makes renames and removals in dir durable. Some platforms and
// file systems cannot sync a directory; that is not an error.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return nil
	}
	defer d.Close()
	_ = d.Sync()
	return nil
}
