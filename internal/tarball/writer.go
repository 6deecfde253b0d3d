package tarball

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// File is one archive entry to write; Open is called once, when the entry's
// turn comes, so a 50 MB pack streams through without being held in memory.
type File struct {
	Name string
	Size int64
	Open func() (io.ReadCloser, error)
}

// ErrNameTooLong means an entry name does not fit the 100-byte USTAR field.
var ErrNameTooLong = errors.New("name longer than 100 bytes")

const block = 512

// Header returns the 512-byte USTAR header the reference builder writes for
// a regular file: mode 0644, zero owners and mtime, NUL uname, gname,
// devmajor, devminor and prefix, and the checksum as seven octal digits and
// a NUL (FORMAT.md §2). archive/tar writes the last three differently.
func Header(name string, size int64) ([block]byte, error) {
	var h [block]byte
	if len(name) > 100 {
		return h, fmt.Errorf("%s: %w", name, ErrNameTooLong)
	}
	for _, r := range name {
		if r < 0x20 || r > 0x7e {
			return h, fmt.Errorf("%q: archive names must be printable ASCII", name)
		}
	}
	if size < 0 || size > 0o77777777777 {
		return h, fmt.Errorf("%s: size %d does not fit a USTAR header", name, size)
	}
	copy(h[0:], name)
	copy(h[100:], "0000644\x00")
	copy(h[108:], "0000000\x00")
	copy(h[116:], "0000000\x00")
	copy(h[124:], fmt.Sprintf("%011o\x00", size))
	copy(h[136:], "00000000000\x00")
	copy(h[148:], "        ")
	h[156] = '0'
	copy(h[257:], "ustar\x0000")
	sum := 0
	for _, b := range h {
		sum += int(b)
	}
	copy(h[148:], fmt.Sprintf("%07o\x00", sum))
	return h, nil
}

// WriteTar writes files, sorted by name (byte order), as an uncompressed
// tar ending in two zero blocks. Entries must have distinct names.
func WriteTar(w io.Writer, files []File) error {
	files = slices.Clone(files)
	slices.SortFunc(files, func(a, b File) int { return strings.Compare(a.Name, b.Name) })
	for i := 1; i < len(files); i++ {
		if files[i].Name == files[i-1].Name {
			return fmt.Errorf("%s: two entries with one name", files[i].Name)
		}
	}
	// One copy buffer for every entry, no larger than the largest.
	var largest int64 = 1
	for _, f := range files {
		largest = max(largest, f.Size)
	}
	buf := make([]byte, min(largest, 32<<10))
	for _, f := range files {
		if err := writeEntry(w, f, buf); err != nil {
			return err
		}
	}
	_, err := w.Write(zeros[:])
	return err
}

// zeros pads an entry to a block and ends the archive (two blocks).
var zeros [2 * block]byte

func writeEntry(w io.Writer, f File, buf []byte) error {
	h, err := Header(f.Name, f.Size)
	if err != nil {
		return err
	}
	if _, err := w.Write(h[:]); err != nil {
		return err
	}
	r, err := f.Open()
	if err != nil {
		return err
	}
	defer r.Close()
	// Copy exactly Size bytes: a file that grew or shrank since it was
	// listed would corrupt the archive's framing.
	n, err := io.CopyBuffer(w, io.LimitReader(r, f.Size), buf)
	if err != nil {
		return fmt.Errorf("%s: %w", f.Name, err)
	}
	if n != f.Size {
		return fmt.Errorf("%s: changed while building (%d bytes, expected %d)", f.Name, n, f.Size)
	}
	if extra, _ := r.Read(buf[:1]); extra > 0 {
		return fmt.Errorf("%s: changed while building (grew past %d bytes)", f.Name, f.Size)
	}
	if pad := (block - f.Size%block) % block; pad > 0 {
		_, err = w.Write(zeros[:pad])
	}
	return err
}

// Write writes the gzip-compressed archive: WriteTar deflated at
// CompressionLevel inside the gzip framing FORMAT.md §2 fixes (see
// gzipWriter).
func Write(w io.Writer, files []File) error {
	return new(Compressors).Write(w, files)
}
