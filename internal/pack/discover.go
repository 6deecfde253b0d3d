package pack

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
)

// Discover expands a lint argument into pack locations: a file (pack.json
// or .tgz) or a directory with pack.json is one pack; a directory without
// one is a folder of packs (a registry checkout's packs/), and each direct
// subdirectory holding a pack.json is a pack. Results are relative to dir's
// parent in the same form as dir, sorted.
func Discover(dir string) ([]string, error) {
	info, err := os.Stat(dir)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return []string{dir}, nil
	}
	if _, err := os.Stat(filepath.Join(dir, ManifestName)); err == nil {
		return []string{dir}, nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var packs []string
	for _, e := range entries {
		sub := filepath.Join(dir, e.Name())
		if e.IsDir() && !skipDirs[e.Name()] {
			if _, err := os.Stat(filepath.Join(sub, ManifestName)); err == nil {
				packs = append(packs, sub)
			}
		}
	}
	if len(packs) == 0 {
		return nil, fmt.Errorf("%s: %w here or in its subdirectories", dir, ErrNoManifest)
	}
	slices.Sort(packs)
	return packs, nil
}
