// Package safefile is the one way wop opens a file a user or attacker may
// control (pack sources, archives, configs, keys): opened once, without
// blocking (a FIFO never hangs a run), without following a link where a
// link is not allowed, checked with fstat to be a regular file (a device
// such as /dev/zero never balloons memory), read through one capped reader,
// and, when the caller listed the file earlier, checked to be the same file.
package safefile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// Identity is what distinguishes one file from another that took its name:
// device, inode, size and modification time. Zero fields are unknown (the
// platform has no inodes) and not compared.
type Identity struct {
	Dev, Ino uint64
	Size     int64
	ModTime  time.Time
}

// IdentityOf returns a listed file's identity.
func IdentityOf(info fs.FileInfo) Identity {
	id := Identity{Size: info.Size(), ModTime: info.ModTime()}
	id.Dev, id.Ino = devIno(info)
	return id
}

// Options say what a caller accepts.
type Options struct {
	// Max is the largest size read; a larger file is refused with
	// *TooLargeError before any byte is read. Zero means no file at all.
	Max int64
	// FollowLinks allows path itself to be a symbolic link (a key or config
	// the user named); pack files never are.
	FollowLinks bool
	// Want, when set, is the identity the file had when it was listed: a
	// file swapped or changed since is refused with ErrChanged.
	Want *Identity
}

// ErrNotRegular means the path is a directory, device, FIFO, socket, or
// (without FollowLinks) a symbolic link.
var ErrNotRegular = errors.New("not a regular file")

// ErrChanged means the file is not the one listed earlier: it was replaced,
// or changed size or time, while wop was working.
var ErrChanged = errors.New("changed since it was listed (replaced or modified while wop was running)")

// TooLargeError means a file exceeds the size ceiling and was not read.
type TooLargeError struct {
	Name      string
	Size, Max int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is %d bytes; the limit is %d", e.Name, e.Size, e.Max)
}

// File is an opened, checked file. Reads stop at the ceiling: a file that
// grows while being read fails with *TooLargeError instead of being
// followed.
type File struct {
	f    *os.File
	r    io.Reader
	name string
	max  int64
	n    int64
	Info fs.FileInfo
}

// Open opens path for reading under opt's rules.
func Open(path string, opt Options) (*File, error) {
	f, err := openNoFollow(path, opt.FollowLinks)
	if err != nil {
		if isLinkRefusal(err) {
			return nil, &fs.PathError{Op: "open", Path: path, Err: fmt.Errorf("%w (a symbolic link)", ErrNotRegular)}
		}
		return nil, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if err := check(path, info, opt); err != nil {
		f.Close()
		return nil, err
	}
	return &File{f: f, r: io.LimitReader(f, opt.Max+1), name: filepath.Base(path), max: opt.Max, Info: info}, nil
}

func check(path string, info fs.FileInfo, opt Options) error {
	if !info.Mode().IsRegular() {
		return &fs.PathError{Op: "open", Path: path, Err: fmt.Errorf("%w (%s)", ErrNotRegular, Kind(info.Mode()))}
	}
	if opt.Want != nil && !opt.Want.matches(IdentityOf(info)) {
		return &fs.PathError{Op: "open", Path: path, Err: ErrChanged}
	}
	if info.Size() > opt.Max {
		return &TooLargeError{Name: filepath.Base(path), Size: info.Size(), Max: opt.Max}
	}
	return nil
}

func (want Identity) matches(got Identity) bool {
	if want.Dev != 0 && want.Dev != got.Dev || want.Ino != 0 && want.Ino != got.Ino {
		return false
	}
	return want.Size == got.Size && want.ModTime.Equal(got.ModTime)
}

// Kind names what a file that is not a regular one is, for messages:
// "a directory", "a named pipe", ...
func Kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "a special file"
}

// Read reads at most the ceiling; past it, the read fails.
func (f *File) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	f.n += int64(n)
	if f.n > f.max {
		return n, &TooLargeError{Name: f.name, Size: f.n, Max: f.max}
	}
	return n, err
}

// Section reads the file from its start as it was opened, up to the size
// fstat saw, independently of Read: a caller that reads one opened file
// several times (hash, gates, upload) takes a new Section each time, so no
// step can see another file swapped in under the name.
func (f *File) Section() *io.SectionReader { return io.NewSectionReader(f.f, 0, f.Info.Size()) }

// Close closes the file.
func (f *File) Close() error { return f.f.Close() }

// Read returns the whole file at path under opt's rules.
func Read(path string, opt Options) ([]byte, error) {
	f, err := Open(path, opt)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// Sized from the open file (plus room to see EOF): io.ReadAll's growth
	// would allocate a large file's size several times over.
	buf := bytes.NewBuffer(make([]byte, 0, f.Info.Size()+bytes.MinRead))
	_, err = buf.ReadFrom(f)
	return buf.Bytes(), err
}
