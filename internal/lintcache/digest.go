package lintcache

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/wop-cli/wop/internal/pack"
)

// Contents is what a pack's own files contribute to a key.
type Contents struct {
	// Archive is the sha256 of a .tgz's bytes: everything a lint of an
	// archive sees (refused entries, headers, order, legacy shapes) is in
	// them, and nothing else of the archive is.
	Archive string `json:",omitempty"`
	// Files lists a directory's files as lint sees them: each name, type,
	// size and contents, or the reason it could not be read.
	Files []File `json:",omitempty"`
}

// File is one file of a directory pack.
type File struct {
	Name string
	Mode fs.FileMode
	Size int64
	Sum  string `json:",omitempty"` // sha256 of the contents read
	Err  string `json:",omitempty"` // why the contents could not be read
}

// Digest reads pk's contents the way lint does: an archive as its bytes, a
// directory through pk.ReadFile (so files over the size ceilings, links
// and special files are keyed by the refusal lint itself meets).
func Digest(pk *pack.Pack) (Contents, error) {
	if pk.Archive != nil {
		sum, err := archiveSum(pk)
		return Contents{Archive: sum}, err
	}
	files := make([]File, 0, len(pk.Files))
	var buf []byte // one buffer for every file: a large pack makes no garbage per file
	for _, f := range pk.Files {
		d := File{Name: f.Name, Mode: f.Mode, Size: f.Size}
		if f.Mode.IsRegular() {
			data, err := pk.ReadFileReusing(f.Name, buf)
			if err != nil {
				d.Err = err.Error()
			} else {
				buf = data[:0]
				sum := sha256.Sum256(data)
				d.Sum = hex.EncodeToString(sum[:])
			}
		}
		files = append(files, d)
	}
	return Contents{Files: files}, nil
}

// archiveSum hashes the archive pk was loaded from: the same file, never
// one swapped in under its name since (whose lint results would then be
// cached under the wrong key).
func archiveSum(pk *pack.Pack) (string, error) {
	f, err := pk.OpenArchive()
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("digest %s: %w", pk.ArchivePath(), err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Stamp is what a pack's files look like from outside: each one's size,
// type and modification time. It is cheap to take (one lstat a file), and
// an edit changes it.
type Stamp []string

// StampOf stamps pk's files (an archive's own file, for an archive).
func StampOf(pk *pack.Pack) Stamp {
	if pk.Archive != nil {
		return Stamp{stampFile(pk.ArchivePath())}
	}
	st := make(Stamp, 0, len(pk.Files))
	for _, f := range pk.Files {
		st = append(st, stampFile(filepath.Join(pk.Dir, filepath.FromSlash(f.Name))))
	}
	return st
}

func stampFile(path string) string {
	info, err := os.Lstat(path)
	if err != nil {
		return "missing"
	}
	return fmt.Sprintf("%d %v %d", info.Size(), info.Mode(), info.ModTime().UnixNano())
}
