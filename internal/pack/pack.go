// Package pack loads an OpenWOP pack from a directory, a pack.json path or a
// built .tgz (read in memory, never extracted) behind one type, so that lint,
// build and sign see the same files the same way.
package pack

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/wop-cli/wop/internal/safefile"
	"github.com/wop-cli/wop/internal/tarball"
)

// ManifestName is the manifest's file name at the pack root.
const ManifestName = "pack.json"

// SignatureEntry is where a pack's raw 64-byte Ed25519 signature lives.
const SignatureEntry = "keys/pack.json.sig"

// File is one file of a pack, named by its slash path from the pack root.
type File struct {
	Name string
	Size int64
	Mode fs.FileMode // type bits only: a link, device or FIFO is not regular
	// ID is what the listing saw (zero for archive entries): reads refuse a
	// file replaced or changed since, so a build bundles what lint checked.
	ID safefile.Identity
}

// Pack is a loaded pack. Its files are listed once at load time; contents
// are read on demand (from disk) or held (from an archive).
type Pack struct {
	// Display is how findings name the pack's root: the directory or the
	// archive path as the user gave it, in slash form ("" for ".").
	Display string
	// Dir is the source directory on disk; "" for an archive.
	Dir string
	// Archive is the read archive when the pack came from a .tgz.
	Archive *tarball.Archive
	// Files lists every file, sorted by name. For a directory this is
	// everything below it except VCS and dependency folders, not only what
	// a build would bundle.
	Files  []File
	limits tarball.Limits
	// archivePath is the .tgz on disk; archiveID is what it was when
	// loaded, so a re-open (the lint cache digests its bytes) never sees
	// another archive swapped in under the name.
	archivePath string
	archiveID   safefile.Identity
	// kept holds the files ReadFile read, while keepLeft (set by Keep)
	// allows: a build's lint, secret check and archive then read each
	// file from disk once.
	mu       sync.Mutex
	kept     map[string][]byte
	keepLeft int64
	// overlay holds contents that stand for files on disk (an editor's
	// unsaved buffers): every read sees them instead.
	overlay map[string][]byte
}

// ErrNoManifest means a directory holds no pack.json.
var ErrNoManifest = errors.New("no pack.json")

// FileTooLargeError means a file exceeds the per-file ceiling and was not read.
type FileTooLargeError = safefile.TooLargeError

// maxArchive bounds a .tgz on disk: compressed, it is smaller than what it
// inflates to, which the reader bounds by the pack limit.
func maxArchive(lim tarball.Limits) int64 { return 2 * lim.MaxTotal }

// skipDirs are never part of a pack and can be huge.
var skipDirs = map[string]bool{".git": true, ".hg": true, ".svn": true, "node_modules": true}

// Load opens the pack at p: a directory, a path to its pack.json, or a .tgz.
func Load(p string, lim tarball.Limits) (*Pack, error) {
	info, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	switch {
	case info.IsDir():
		return loadDir(p, lim)
	case filepath.Base(p) == ManifestName:
		return loadDir(filepath.Dir(p), lim)
	default:
		return loadArchive(p, lim)
	}
}

func loadDir(dir string, lim tarball.Limits) (*Pack, error) {
	if info, err := os.Lstat(filepath.Join(dir, ManifestName)); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, ErrNoManifest
		}
		return nil, err
	} else if info.IsDir() {
		// A folder named pack.json holds no manifest; walking on would
		// lint an empty pack clean.
		return nil, &fs.PathError{Op: "read", Path: filepath.Join(dir, ManifestName), Err: errors.New("pack.json is a directory; the manifest must be a file")}
	}
	display := DisplayName(dir)
	// The root the user named may be a link to the pack (packs/x -> ../x);
	// links inside the pack are never followed.
	dir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, err
	}
	pk := &Pack{Display: display, Dir: dir, limits: lim}
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() {
			if rel != "." && skipDirs[d.Name()] {
				return filepath.SkipDir
			}
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		pk.Files = append(pk.Files, File{Name: filepath.ToSlash(rel), Size: info.Size(), Mode: info.Mode().Type(), ID: safefile.IdentityOf(info)})
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(pk.Files, func(a, b File) int { return strings.Compare(a.Name, b.Name) })
	return pk, nil
}

func loadArchive(p string, lim tarball.Limits) (*Pack, error) {
	f, err := safefile.Open(p, safefile.Options{Max: maxArchive(lim), FollowLinks: true})
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// Every entry is held (at most the archive ceiling): lint's rules read
	// each file several times, and a file left out would cost decompressing
	// the whole archive again each time.
	a, err := tarball.Read(f, lim)
	if err != nil {
		return nil, err
	}
	pk := &Pack{Display: DisplayName(p), Archive: a, limits: lim, archivePath: p, archiveID: safefile.IdentityOf(f.Info)}
	for _, e := range a.Entries {
		pk.Files = append(pk.Files, File{Name: e.Name, Size: e.Size})
	}
	slices.SortFunc(pk.Files, func(a, b File) int { return strings.Compare(a.Name, b.Name) })
	if _, ok := a.Find(ManifestName); !ok {
		return nil, missingManifest(a)
	}
	return pk, nil
}

// missingManifest says why an archive has no usable pack.json: refused
// copies (too large, unsafe) are named, not reported as absent, and one in
// a folder (npm pack's package/) is pointed at. It is not ErrNoManifest,
// which means a directory without one.
func missingManifest(a *tarball.Archive) error {
	for _, is := range a.Refused() {
		if name := strings.TrimPrefix(is.Entry, "./"); name == ManifestName {
			return fmt.Errorf("the archive's pack.json is refused: %s", is.Message)
		}
	}
	for _, e := range a.Entries {
		if path.Base(e.Name) == ManifestName {
			return fmt.Errorf("no pack.json at the archive's root, only %s: a pack archive keeps its files at the root, as wop pack build writes them (not in a folder, as npm pack does)", e.Name)
		}
	}
	return errors.New("no pack.json at the archive's root: not a pack archive")
}

// DisplayName is how findings name a pack given as p: a slash path, ""
// for the current directory.
func DisplayName(p string) string {
	p = filepath.ToSlash(filepath.Clean(p))
	if p == "." {
		return ""
	}
	return p
}

// Path joins the pack's display root and a file name, for messages.
func (pk *Pack) Path(name string) string {
	if pk.Display == "" {
		return name
	}
	return pk.Display + "/" + name
}

// Lookup returns the file called name exactly (byte-for-byte, as archive
// entries are compared).
func (pk *Pack) Lookup(name string) (File, bool) {
	i, ok := slices.BinarySearchFunc(pk.Files, name, func(f File, n string) int { return strings.Compare(f.Name, n) })
	if !ok {
		return File{}, false
	}
	return pk.Files[i], true
}

// Keep makes a directory pack keep the bytes of the files ReadFile reads,
// up to budget bytes in all, for later ReadFile and Open calls: the steps
// of a build (lint, the secret check, the archive) read each file once.
// Past the budget files are read again when asked again, so a pack at the
// registry's size ceiling is still streamed. The bytes are the file as
// first read: the build bundles exactly what lint and the secret check saw.
func (pk *Pack) Keep(budget int64) {
	pk.mu.Lock()
	defer pk.mu.Unlock()
	if pk.Archive == nil {
		pk.keepLeft = budget
		pk.kept = map[string][]byte{}
	}
}

// Overlay makes a directory pack read files (slash names from its root)
// from data instead of disk: an editor's unsaved buffers are linted as the
// file they stand for. A name not on disk is added as a regular file. The
// size ceilings still apply to the overlaid bytes.
func (pk *Pack) Overlay(files map[string][]byte) {
	if pk.Archive != nil || len(files) == 0 {
		return
	}
	pk.mu.Lock()
	defer pk.mu.Unlock()
	if pk.overlay == nil {
		pk.overlay = map[string][]byte{}
	}
	for name, data := range files {
		pk.overlay[name] = data
		f := File{Name: name, Size: int64(len(data))}
		if i, ok := slices.BinarySearchFunc(pk.Files, name, func(f File, n string) int { return strings.Compare(f.Name, n) }); ok {
			pk.Files[i] = f
		} else {
			pk.Files = slices.Insert(pk.Files, i, f)
		}
	}
}

// Remove makes a directory pack lack files (slash names from its root; a
// name ending in "/" is a folder and everything in it) that are still on
// disk: a commit that leaves out a file of the working tree (git rm
// --cached, or never added) is linted as it will be pushed.
func (pk *Pack) Remove(names []string) {
	if pk.Archive != nil || len(names) == 0 {
		return
	}
	exact := map[string]bool{}
	var folders []string
	for _, n := range names {
		if strings.HasSuffix(n, "/") {
			folders = append(folders, n)
		} else {
			exact[n] = true
		}
	}
	gone := func(name string) bool {
		return exact[name] || slices.ContainsFunc(folders, func(f string) bool { return strings.HasPrefix(name, f) })
	}
	pk.mu.Lock()
	defer pk.mu.Unlock()
	pk.Files = slices.DeleteFunc(pk.Files, func(f File) bool { return gone(f.Name) })
	maps.DeleteFunc(pk.overlay, func(name string, _ []byte) bool { return gone(name) })
	maps.DeleteFunc(pk.kept, func(name string, _ []byte) bool { return gone(name) })
}

// overlaid returns the overlay's bytes for name, if it has them.
func (pk *Pack) overlaid(name string) ([]byte, bool) {
	pk.mu.Lock()
	defer pk.mu.Unlock()
	data, ok := pk.overlay[name]
	return data, ok
}

// ReadFile returns a file's bytes, which the caller must not modify. Files
// over the per-file ceiling (the manifest's own ceiling for pack.json) are
// refused with *FileTooLargeError before any byte is read.
func (pk *Pack) ReadFile(name string) ([]byte, error) {
	if data, ok := pk.keptFile(name); ok {
		return data, nil
	}
	data, err := pk.ReadFileReusing(name, nil)
	if err == nil {
		pk.keep(name, data)
	}
	return data, err
}

func (pk *Pack) keptFile(name string) ([]byte, bool) {
	pk.mu.Lock()
	defer pk.mu.Unlock()
	data, ok := pk.kept[name]
	return data, ok
}

func (pk *Pack) keep(name string, data []byte) {
	pk.mu.Lock()
	defer pk.mu.Unlock()
	if pk.kept != nil && int64(len(data)) <= pk.keepLeft {
		pk.kept[name] = data
		pk.keepLeft -= int64(len(data))
	}
}

// ReadFileReusing is ReadFile reading a directory's file into buf's storage
// when it is large enough (allocating otherwise): a caller looking at every
// file of a large pack in turn makes no garbage per file. The result may
// alias buf, so it is only valid until buf is used again; an archive's
// entry is returned as held, without a copy. It reads a directory's file
// from disk even when Keep kept it (a kept file must never become a
// caller's buffer).
func (pk *Pack) ReadFileReusing(name string, buf []byte) ([]byte, error) {
	f, ok := pk.Lookup(name)
	if !ok {
		return nil, fmt.Errorf("%s: %w", name, fs.ErrNotExist)
	}
	max := pk.limits.MaxEntry
	if name == ManifestName {
		max = pk.limits.MaxManifest
	}
	if f.Size > max {
		return nil, &FileTooLargeError{Name: name, Size: f.Size, Max: max}
	}
	if data, ok := pk.overlaid(name); ok {
		return append(buf[:0], data...), nil // a copy: the caller may reuse buf
	}
	if pk.Archive != nil {
		e, _ := pk.Archive.Find(name)
		return e.Data, nil
	}
	r, err := pk.open(f, max)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	// Sized from the listing (plus room to see EOF): io.ReadAll's doubling
	// would allocate twice a large file's size.
	if int64(cap(buf)) < f.Size+bytes.MinRead {
		buf = make([]byte, 0, f.Size+bytes.MinRead)
	}
	b := bytes.NewBuffer(buf[:0])
	_, err = b.ReadFrom(r)
	return b.Bytes(), named(err, name)
}

// Open opens a source file for streaming (a build copies it into the
// archive), with the checks ReadFile makes; a file Keep kept is not read
// again. Directory packs only.
func (pk *Pack) Open(name string) (io.ReadCloser, error) {
	f, ok := pk.Lookup(name)
	if !ok || pk.Archive != nil {
		return nil, fmt.Errorf("%s: %w", name, fs.ErrNotExist)
	}
	if data, ok := pk.keptFile(name); ok {
		return io.NopCloser(bytes.NewReader(data)), nil
	}
	if data, ok := pk.overlaid(name); ok {
		return io.NopCloser(bytes.NewReader(data)), nil
	}
	max := pk.limits.MaxEntry
	if name == ManifestName {
		max = pk.limits.MaxManifest
	}
	return pk.open(f, max)
}

// open opens a listed file: never through a link, never blocking, a regular
// file, the same one the listing saw.
func (pk *Pack) open(f File, max int64) (*safefile.File, error) {
	if !f.Mode.IsRegular() {
		return nil, fmt.Errorf("%s: %w", f.Name, safefile.ErrNotRegular)
	}
	opt := safefile.Options{Max: max}
	if f.ID != (safefile.Identity{}) {
		opt.Want = &f.ID
	}
	r, err := safefile.Open(filepath.Join(pk.Dir, filepath.FromSlash(f.Name)), opt)
	return r, named(err, f.Name)
}

// named makes an error name a pack file by its slash path.
func named(err error, name string) error {
	var tooLarge *FileTooLargeError
	var pe *fs.PathError
	switch {
	case errors.As(err, &tooLarge):
		tooLarge.Name = name
	case errors.As(err, &pe):
		return fmt.Errorf("%s: %w", name, pe.Err)
	}
	return err
}

// ArchivePath is the .tgz the pack was loaded from; "" for a directory.
func (pk *Pack) ArchivePath() string { return pk.archivePath }

// OpenArchive opens the .tgz again, refusing a file that is not the one
// loaded (swapped or changed since).
func (pk *Pack) OpenArchive() (*safefile.File, error) {
	return safefile.Open(pk.archivePath, safefile.Options{Max: maxArchive(pk.limits), FollowLinks: true, Want: &pk.archiveID})
}

// ArchiveID is the identity of the .tgz when it was loaded (zero for a
// directory): a caller that opened the archive itself compares it to know
// both saw the same file.
func (pk *Pack) ArchiveID() safefile.Identity { return pk.archiveID }

// Limits returns the size ceilings the pack was loaded with.
func (pk *Pack) Limits() tarball.Limits { return pk.limits }

// Each calls fn with the contents of every regular file want accepts, in
// name order for a directory and archive order for an archive. A
// directory's files are read one at a time and none is held beyond what
// Keep allows (an archive's are in memory since its load): the way to look
// at every file of a large pack.
func (pk *Pack) Each(want func(name string) bool, fn func(name string, data []byte) error) error {
	if pk.Archive == nil {
		for _, f := range pk.Files {
			if !f.Mode.IsRegular() || !want(f.Name) {
				continue
			}
			data, err := pk.ReadFile(f.Name)
			if err != nil {
				continue // too large: reported by the size rules
			}
			if err := fn(f.Name, data); err != nil {
				return err
			}
		}
		return nil
	}
	for _, e := range pk.Archive.Entries {
		if want(e.Name) {
			if err := fn(e.Name, e.Data); err != nil {
				return err
			}
		}
	}
	return nil
}
