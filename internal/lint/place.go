package lint

import (
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/wop-cli/wop/internal/pack"
)

// Place is what rules know of a directory pack's surroundings. It is found
// once per run, and the lint cache keys it, so a rule never reads the disk
// around a pack behind the cache's back.
type Place struct {
	Abs          string // the pack directory's absolute path; "" for an archive
	SiblingPacks bool   // the parent directory holds other packs too
	// RepoRoot: the pack directory is a repository's root (it holds .git,
	// a directory, or a file for a worktree or submodule). Its folder name
	// is its owner's choice, not a registry's layout.
	RepoRoot bool
}

// placeOf finds pk's Place; siblings, when not nil, remembers each parent
// directory's answer for the other packs of one run.
func placeOf(pk *pack.Pack, siblings *siblingMemo) (Place, error) {
	if pk.Dir == "" {
		return Place{}, nil
	}
	abs, err := filepath.Abs(pk.Dir)
	if err != nil {
		return Place{}, err
	}
	_, gitErr := os.Lstat(filepath.Join(abs, ".git"))
	return Place{Abs: abs, SiblingPacks: siblings.hasPacks(filepath.Dir(abs)), RepoRoot: gitErr == nil}, nil
}

// siblingMemo holds, for one RunAll, whether each parent directory holds
// two packs or more: the packs of a folder share their parent, and asking
// again for each pack was 4% of linting the folder.
type siblingMemo struct {
	mu   sync.Mutex
	dirs map[string]bool
}

func newSiblingMemo() *siblingMemo { return &siblingMemo{dirs: map[string]bool{}} }

// hasPacks reports whether dir holds two packs or more; a nil memo asks the
// disk every time.
func (m *siblingMemo) hasPacks(dir string) bool {
	if m == nil {
		return packsIn(os.DirFS(dir), 2) >= 2
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	has, ok := m.dirs[dir]
	if !ok {
		has = packsIn(os.DirFS(dir), 2) >= 2
		m.dirs[dir] = has
	}
	return has
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
