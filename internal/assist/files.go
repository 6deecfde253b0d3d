package assist

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// maxListed bounds the files a completion lists, and maxVisited the
// entries it looks at: a pack holds dozens; a folder opened by mistake (a
// home directory) must not be walked whole.
const (
	maxListed  = 2000
	maxVisited = 20000
)

// skipDirs are never part of a pack and can be huge.
var skipDirs = map[string]bool{".git": true, ".hg": true, ".svn": true, "node_modules": true}

// fileItems lists the regular files of the pack at dir, as the slash paths
// a ref writes, with the extension ext ("" for any). Links are not
// followed and not offered: a ref to one is an error (ref-not-file).
func fileItems(dir, ext string) []Item { return listFiles(dir, ext, maxListed, maxVisited) }

// listFiles is fileItems with its bounds.
func listFiles(dir, ext string, listed, visits int) []Item {
	if dir == "" {
		return nil
	}
	var items []Item
	visited := 0
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		visited++
		if len(items) >= listed || visited > visits {
			return filepath.SkipAll
		}
		if err != nil {
			return nil // an unreadable folder: list the rest
		}
		if d.IsDir() {
			if p != dir && skipDirs[d.Name()] {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || ext != "" && !strings.HasSuffix(d.Name(), ext) {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil || rel == "pack.json" {
			return nil
		}
		rel = filepath.ToSlash(rel)
		items = append(items, Item{Label: rel, Insert: rel, Kind: KindFile})
		return nil
	})
	slices.SortFunc(items, func(a, b Item) int { return strings.Compare(a.Label, b.Label) })
	return items
}

// PackFile returns the absolute path of the file ref names in the pack at
// dir, when ref is a clean relative path to a regular file reached through
// no link: a ref never leads out of its pack, whatever the buffer says.
func PackFile(dir, ref string) (string, bool) {
	ref = strings.TrimPrefix(ref, "./")
	if dir == "" || ref == "" || path.IsAbs(ref) || strings.Contains(ref, "\\") || strings.ContainsRune(ref, 0) {
		return "", false
	}
	clean := path.Clean(ref)
	if clean == ".." || strings.HasPrefix(clean, "../") {
		return "", false
	}
	return inside(dir, clean)
}

// inside walks the slash path rel down from dir, refusing links and
// anything but a regular file at the end.
func inside(dir, rel string) (string, bool) {
	p := dir
	parts := strings.Split(rel, "/")
	for i, part := range parts {
		p = filepath.Join(p, part)
		info, err := os.Lstat(p)
		if err != nil {
			return "", false
		}
		last := i == len(parts)-1
		if last && !info.Mode().IsRegular() || !last && !info.IsDir() {
			return "", false
		}
	}
	return p, true
}
