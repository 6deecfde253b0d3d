package publish

import (
	"compress/gzip"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"

	"github.com/wop-cli/wop/internal/tarball"
)

// TarDigest is the SHA-256 of an archive's uncompressed tar stream: what the
// signature (over the pack.json entry) and the file hashes cover. The same
// pack built by the registry's Node builder and by wop has one tar but other
// gzip bytes, so other integrities; "already published" compares this.
// The stream is bounded by the archive limits, so a gzip bomb fails rather
// than hashing forever.
func TarDigest(r io.Reader, lim tarball.Limits) ([]byte, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("not a gzip stream: %w", err)
	}
	defer zr.Close()
	// Headers and padding add at most a block and a half per entry on top
	// of the entries' own sizes; 1/4 of MaxTotal bounds them generously.
	limit := lim.MaxTotal + lim.MaxTotal/4 + 1024
	h := sha256.New()
	n, err := io.Copy(h, io.LimitReader(zr, limit+1))
	if err != nil {
		return nil, fmt.Errorf("reading the tar stream: %w", err)
	}
	if n > limit {
		return nil, errors.New("the tar stream exceeds the archive size ceiling")
	}
	return h.Sum(nil), nil
}
