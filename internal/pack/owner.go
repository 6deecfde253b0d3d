package pack

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
)

// Owner returns the pack that holds path: the nearest directory, path's own
// (when it is a directory) or an ancestor's, that has a pack.json. path need
// not exist (a file deleted in the change still belongs to its pack). ok is
// false when no directory up to the filesystem root has one.
func Owner(path string) (dir string, ok bool) {
	dir = filepath.Clean(path)
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		dir = filepath.Dir(dir)
	}
	for {
		if isFile(filepath.Join(dir, ManifestName)) {
			return dir, true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}

// Below returns every pack under dir (dir itself if it is one), without
// descending into a pack once found or into VCS and node_modules folders.
// It is how a change to a shared .wop.yaml finds the packs it configures.
func Below(dir string) ([]string, error) {
	var packs []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if p != dir && skipDirs[d.Name()] {
			return filepath.SkipDir
		}
		if isFile(filepath.Join(p, ManifestName)) {
			packs = append(packs, p)
			return filepath.SkipDir
		}
		return nil
	})
	slices.Sort(packs)
	return packs, err
}

func isFile(p string) bool {
	info, err := os.Stat(p)
	return err == nil && info.Mode().IsRegular()
}
