package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/wop-cli/wop/internal/safefile"
)

// Discovery says where Find may look and whose files it may read. A
// .wop.yaml can turn rules off, so one planted by another user in a
// directory above the pack (/tmp, a shared checkout) must not apply
// silently: compare git's safe.directory (CVE-2022-24765).
type Discovery struct {
	// Home is the user's home directory: the search stops there.
	Home string
	// UID is the current user; files owned by another user (other than
	// root) are not read. -1 skips the check (platforms without owners).
	UID int
	// SafeDirs are directories whose configuration files are read whoever
	// owns them; "*" trusts every directory.
	SafeDirs []string
	// Unsaved reports an editor buffer held for a path not on disk (a
	// .wop.yaml never saved): it is found as a file would be, and is the
	// editor user's own. Nil for none.
	Unsaved func(path string) bool
	// Absent reports a file on disk that is to be taken as not there (one
	// the commit being checked removes from git but leaves on disk). Nil
	// for none.
	Absent func(path string) bool
}

// Found is the outcome of a search.
type Found struct {
	Path string // the configuration file; "" if none applies
	// Ignored is set when the nearest file was skipped because another
	// user owns it: the caller warns.
	Ignored string
	Owner   int
	// ID is the file Find judged; Load with Options.Want refuses another
	// one swapped in under the name since.
	ID safefile.Identity
}

// Find looks for a configuration file in dir and its parents. It stops at
// the first one, at the repository root (a directory with .git), at the
// home directory and at the filesystem root. A file owned by another user
// ends the search unused (Found.Ignored), unless its directory is safe.
func Find(dir string, d Discovery) (Found, error) {
	return NewFinder(d).Find(dir)
}

// Finder is Find for the packs of one run: what the search finds from a
// directory up depends only on that directory and the Discovery, so the
// packs of a folder, which share every ancestor, ask the disk about each
// ancestor once (three failed lookups per directory per pack, up to the
// root, were 3% of linting a folder). It is not safe for concurrent use.
type Finder struct {
	d     Discovery
	found map[string]Found // a directory's outcome; errors are not kept
}

// NewFinder returns a Finder with an empty memo.
func NewFinder(d Discovery) *Finder {
	return &Finder{d: d, found: map[string]Found{}}
}

// Find is the package's Find, remembering the outcome of every directory
// it passes.
func (f *Finder) Find(dir string) (Found, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return Found{}, err
	}
	var passed []string
	for {
		got, ok := f.found[dir]
		if !ok {
			var done bool
			got, done, err = f.d.inDir(dir)
			if err != nil {
				return Found{}, err
			}
			if !done {
				passed = append(passed, dir)
				dir = filepath.Dir(dir)
				continue
			}
			f.found[dir] = got
		}
		for _, p := range passed {
			f.found[p] = got
		}
		return got, nil
	}
}

// inDir is one step of the search: the outcome at dir, with done set, or
// done unset when the search goes on to the parent.
func (d Discovery) inDir(dir string) (found Found, done bool, err error) {
	for _, name := range FileNames {
		p := filepath.Join(dir, name)
		info, err := os.Stat(p)
		if errors.Is(err, fs.ErrNotExist) {
			if d.Unsaved != nil && d.Unsaved(p) {
				return Found{Path: p}, true, nil
			}
			continue
		}
		if err != nil {
			return Found{}, false, err
		}
		if d.Absent != nil && d.Absent(p) {
			continue
		}
		if uid, ok := safefile.OwnerUID(info); ok && !d.trusts(dir, uid) {
			return Found{Ignored: p, Owner: uid}, true, nil
		}
		return Found{Path: p, ID: safefile.IdentityOf(info)}, true, nil
	}
	if dir == d.Home || exists(filepath.Join(dir, ".git")) || filepath.Dir(dir) == dir {
		return Found{}, true, nil
	}
	return Found{}, false, nil
}

func (d Discovery) trusts(dir string, uid int) bool {
	return d.UID < 0 || uid == d.UID || uid == 0 || slices.Contains(d.SafeDirs, "*") || slices.ContainsFunc(d.SafeDirs, func(s string) bool {
		return filepath.Clean(s) == dir
	})
}

// Warning is what to tell the user about an ignored file.
func (f Found) Warning() string {
	if f.Ignored == "" {
		return ""
	}
	return fmt.Sprintf("ignoring %s: it belongs to another user (uid %d); to use it, add its directory to WOP_SAFE_DIRECTORIES or name it with --config or WOP_CONFIG", f.Ignored, f.Owner)
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}
