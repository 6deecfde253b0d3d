package tarball

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"hash"
	"hash/crc32"
	"io"
)

// SameArchive (with inflate state from c: see Compressors) reports whether archive is a gzip member in wop's framing
// (gzipHeader, one member, nothing after it) whose tar is exactly what
// WriteTar writes for files: a build can then keep an archive it already
// wrote without compressing again. It inflates archive no further than the
// tar it compares with, so a hostile archive costs no more than a true
// one. Files are opened as WriteTar opens them; an error reading one is
// returned.
func (c *Compressors) SameArchive(archive []byte, files []File) (bool, error) {
	n := len(archive)
	if n < len(gzipHeader)+8 || !bytes.Equal(archive[:len(gzipHeader)], gzipHeader[:]) {
		return false, nil
	}
	body := bytes.NewReader(archive[len(gzipHeader) : n-8])
	cmp, _ := c.inflate.Get().(*comparer)
	if cmp == nil {
		cmp = &comparer{r: flate.NewReader(body)}
	} else if err := cmp.r.(flate.Resetter).Reset(body, nil); err != nil {
		return false, err
	}
	defer c.inflate.Put(cmp)
	cmp.crc, cmp.size = crc32.NewIEEE(), 0
	if err := WriteTar(cmp, files); err != nil {
		if errors.Is(err, errDiffers) {
			return false, nil
		}
		return false, err
	}
	// The deflate stream ends (its final block, not merely the input)
	// where the tar does, and the trailer is its.
	if k, err := io.ReadFull(cmp.r, cmp.buf[:1]); k != 0 || err != io.EOF || body.Len() != 0 {
		return false, nil
	}
	trailer := archive[n-8:]
	return binary.LittleEndian.Uint32(trailer[:4]) == cmp.crc.Sum32() &&
		binary.LittleEndian.Uint32(trailer[4:]) == uint32(cmp.size), nil
}

var errDiffers = errors.New("archive differs")

// comparer is a writer that checks what is written against what r
// inflates to, failing with errDiffers at the first difference. It is the
// inflate state Compressors lends: the decompressor and a buffer.
type comparer struct {
	r    io.Reader
	buf  [32 << 10]byte
	crc  hash.Hash32
	size int64
}

func (c *comparer) Write(p []byte) (int, error) {
	for rest := p; len(rest) > 0; {
		got := c.buf[:min(len(rest), len(c.buf))]
		if _, err := io.ReadFull(c.r, got); err != nil || !bytes.Equal(got, rest[:len(got)]) {
			return 0, errDiffers
		}
		rest = rest[len(got):]
	}
	c.crc.Write(p)
	c.size += int64(len(p))
	return len(p), nil
}
