package lint

import (
	"crypto/sha256"
	"encoding/hex"
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
	// Beside, when SiblingPacks, names the folders beside the pack: a
	// README's link to a sibling pack works in the repository's web view
	// when that folder exists (readme-link-sibling).
	Beside *Folders `json:",omitempty"`
}

// Folders is a set of folder names; the cache keys it by its Stamp alone
// (a folder of 1,000 packs would otherwise put 1,000 names in every key).
type Folders struct {
	Stamp string // digest of the sorted names
	names map[string]bool
}

// Has reports whether name is one of the folders.
func (f *Folders) Has(name string) bool { return f != nil && f.names[name] }

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
	pl := Place{Abs: abs, SiblingPacks: siblings.hasPacks(filepath.Dir(abs)), RepoRoot: gitErr == nil}
	if pl.SiblingPacks {
		pl.Beside = siblings.folders(filepath.Dir(abs))
	}
	return pl, nil
}

// siblingMemo holds, for one RunAll, whether each parent directory holds
// two packs or more: the packs of a folder share their parent, and asking
// again for each pack was 4% of linting the folder.
type siblingMemo struct {
	mu     sync.Mutex
	dirs   map[string]bool
	beside map[string]*Folders
}

func newSiblingMemo() *siblingMemo {
	return &siblingMemo{dirs: map[string]bool{}, beside: map[string]*Folders{}}
}

// folders lists the folders in dir, once per run for a memo.
func (m *siblingMemo) folders(dir string) *Folders {
	if m == nil {
		return foldersIn(dir)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	f, ok := m.beside[dir]
	if !ok {
		f = foldersIn(dir)
		m.beside[dir] = f
	}
	return f
}

// foldersIn lists dir's subdirectories by name (no stat each: a link to
// a folder works in a web view whether or not it holds a pack.json).
func foldersIn(dir string) *Folders {
	entries, _ := os.ReadDir(dir) // sorted; an unreadable dir lists none
	f := &Folders{names: map[string]bool{}}
	h := sha256.New()
	for _, e := range entries {
		if e.IsDir() {
			f.names[e.Name()] = true
			h.Write([]byte(e.Name() + "\x00"))
		}
	}
	f.Stamp = hex.EncodeToString(h.Sum(nil))
	return f
}

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
