package lint

import (
	"io/fs"
	"os"
	"path/filepath"

	"github.com/wop-cli/wop/internal/pack"
)

// Place is what rules know of a directory pack's surroundings. It is found
// once per run, and the lint cache keys it, so a rule never reads the disk
// around a pack behind the cache's back.
type Place struct {
	Abs          string // the pack directory's absolute path; "" for an archive
	SiblingPacks bool   // the parent directory holds other packs too
}

// placeOf finds pk's Place.
func placeOf(pk *pack.Pack) (Place, error) {
	if pk.Dir == "" {
		return Place{}, nil
	}
	abs, err := filepath.Abs(pk.Dir)
	if err != nil {
		return Place{}, err
	}
	return Place{Abs: abs, SiblingPacks: packsIn(os.DirFS(filepath.Dir(abs)), 2) >= 2}, nil
}

// packsIn counts the subdirectories of fsys's root holding a pack.json,
// stopping at max: in a folder of 1,000 packs, one pack's lint reads a few
// directory entries and stats two, not all of them (so the entries are
// read in batches, unsorted).
func packsIn(fsys fs.FS, max int) int {
	f, err := fsys.Open(".")
	if err != nil {
		return 0
	}
	defer f.Close()
	dir, ok := f.(fs.ReadDirFile)
	if !ok {
		return 0
	}
	n := 0
	for n < max {
		entries, err := dir.ReadDir(16)
		for _, e := range entries {
			if n == max {
				break
			}
			if _, err := fs.Stat(fsys, e.Name()+"/"+pack.ManifestName); err == nil {
				n++
			}
		}
		if err != nil {
			break
		}
	}
	return n
}
