package stage

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/wop-cli/wop/internal/atomicfile"
)

// skipped are top-level entries that are not the registry's content: git's
// own store, and installed npm packages (linked into the workspace, since
// the registry's scripts may import them). Either may be a symbolic link or
// a file (a monorepo's shared node_modules, a worktree's .git), so they are
// skipped by name whatever their type.
var skipped = map[string]bool{".git": true, "node_modules": true}

// skipDir ends a walk's visit of a skipped entry: a folder's contents are
// not walked, a link or file is passed over.
func skipDir(d fs.DirEntry) error {
	if d.IsDir() {
		return filepath.SkipDir
	}
	return nil
}

// copyTree copies the checkout's files into dst, owner-writable whatever
// their mode (the registry's generators rewrite files in place).
func copyTree(ctx context.Context, src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err // Ctrl-C: stop at once, so Stage can remove the copy in time
		}
		rel, _ := filepath.Rel(src, p)
		if skipped[rel] {
			return skipDir(d)
		}
		target := filepath.Join(dst, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			return os.MkdirAll(target, info.Mode().Perm()|0o700)
		case d.Type()&fs.ModeSymlink != 0:
			link, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(link, target)
		case d.Type().IsRegular():
			return copyFile(p, target, info.Mode().Perm()|0o200)
		}
		return nil // sockets, devices: not content
	})
}

// copyFile copies src to a new file dst; between files io.Copy lets the
// kernel copy (copy_file_range), so a large checkout is copied quickly.
func copyFile(src, dst string, perm fs.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// writeChange applies c to the workspace. It writes through an os.Root, so
// a symlink in the checkout that leads out of it (packs/ or registry/
// pointing elsewhere) is refused rather than followed: staging must never
// delete or write files outside the checkout's copy.
func writeChange(root string, c *change) error {
	r, err := os.OpenRoot(root)
	if err != nil {
		return err
	}
	defer r.Close()
	if err := r.RemoveAll(filepath.FromSlash(c.replace)); err != nil {
		return escapeHint(err)
	}
	for name, data := range c.files {
		p := filepath.FromSlash(name)
		if err := r.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return escapeHint(err)
		}
		if err := r.WriteFile(p, data, 0o644); err != nil {
			return escapeHint(err)
		}
	}
	return nil
}

// escapeHint explains os.Root's refusal of a path that leaves the checkout
// (os exports no sentinel for it, only the message).
func escapeHint(err error) error {
	if strings.Contains(err.Error(), "path escapes from parent") {
		return fmt.Errorf("%w: a symlink in the checkout leads outside it; wop writes only inside the checkout (replace the link with the folder it points to)", err)
	}
	return err
}

// Edit is one file a staged change touches.
type Edit struct {
	Path string      // slash-separated, relative to the checkout's root
	Op   string      // "added", "modified" or "deleted"
	data []byte      // the new content (nil when deleted)
	mode fs.FileMode // the new mode
}

// regularFiles lists a tree's regular files by relative slash path.
func regularFiles(root string) (map[string]fs.FileMode, error) {
	out := map[string]fs.FileMode{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if skipped[rel] {
			return skipDir(d)
		}
		if d.Type().IsRegular() {
			info, err := d.Info()
			if err != nil {
				return err
			}
			out[filepath.ToSlash(rel)] = info.Mode().Perm()
		}
		return nil
	})
	return out, err
}

// diff lists what turns the checkout into the workspace, sorted by path.
func diff(checkout, workspace string) ([]Edit, error) {
	before, err := regularFiles(checkout)
	if err != nil {
		return nil, err
	}
	after, err := regularFiles(workspace)
	if err != nil {
		return nil, err
	}
	var edits []Edit
	for rel, mode := range after {
		data, err := os.ReadFile(filepath.Join(workspace, filepath.FromSlash(rel)))
		if err != nil {
			return nil, err
		}
		oldMode, existed := before[rel]
		if !existed {
			edits = append(edits, Edit{Path: rel, Op: "added", data: data, mode: mode &^ 0o022})
			continue
		}
		old, err := os.ReadFile(filepath.Join(checkout, filepath.FromSlash(rel)))
		if err != nil {
			return nil, err
		}
		if !bytes.Equal(old, data) {
			edits = append(edits, Edit{Path: rel, Op: "modified", data: data, mode: oldMode})
		}
	}
	for rel := range before {
		if _, ok := after[rel]; !ok {
			edits = append(edits, Edit{Path: rel, Op: "deleted"})
		}
	}
	slices.SortFunc(edits, func(a, b Edit) int { return strings.Compare(a.Path, b.Path) })
	return edits, nil
}

// fileOps are the filesystem writes apply makes; tests inject failures.
type fileOps struct {
	write  func(path string, data []byte, mode fs.FileMode) error
	remove func(path string) error
}

var realOps = fileOps{write: atomicfile.Write, remove: os.Remove}

// saved is a file's state before apply touched it, for the rollback.
type saved struct {
	path    string
	existed bool
	data    []byte
	mode    fs.FileMode
}

// applied records the state apply replaced, for a rollback.
type applied struct {
	undo []saved
	made []string // folders apply created, outermost first
}

// apply moves the edits into the checkout. Each file is replaced atomically;
// if one fails, every file already touched is put back as it was and the
// folders apply created are removed, so the checkout is never half-staged.
// The record it returns undoes the whole change if a later step fails.
func apply(root string, edits []Edit, ops fileOps) (done *applied, err error) {
	done = &applied{}
	defer func() {
		if err != nil {
			err = errors.Join(err, done.rollback())
			done = nil
		}
	}()
	for _, e := range edits {
		p := filepath.Join(root, filepath.FromSlash(e.Path))
		s := saved{path: p}
		if info, statErr := os.Stat(p); statErr == nil {
			if s.data, err = os.ReadFile(p); err != nil {
				return done, err
			}
			s.existed, s.mode = true, info.Mode().Perm()
		}
		done.undo = append(done.undo, s)
		if e.Op == "deleted" {
			if err = ops.remove(p); err != nil {
				return done, fmt.Errorf("removing %s: %w", e.Path, err)
			}
			continue
		}
		dirs, mkErr := mkdirs(filepath.Dir(p))
		done.made = append(done.made, dirs...)
		if mkErr != nil {
			return done, mkErr
		}
		if err = ops.write(p, e.data, e.mode); err != nil {
			return done, fmt.Errorf("writing %s: %w", e.Path, err)
		}
	}
	return done, nil
}

// mkdirs creates dir and its missing parents, returning those it created,
// outermost first.
func mkdirs(dir string) ([]string, error) {
	var missing []string
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(d); err == nil || filepath.Dir(d) == d {
			break
		}
		missing = append([]string{d}, missing...)
	}
	for i, d := range missing {
		if err := os.Mkdir(d, 0o755); err != nil {
			return missing[:i], err
		}
	}
	return missing, nil
}

// rollback restores the saved files, newest first, then removes the
// folders apply created, innermost first.
func (a *applied) rollback() error {
	var errs []error
	for i := len(a.undo) - 1; i >= 0; i-- {
		s := a.undo[i]
		if s.existed {
			errs = append(errs, atomicfile.Write(s.path, s.data, s.mode))
		} else if err := os.Remove(s.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	for i := len(a.made) - 1; i >= 0; i-- {
		errs = append(errs, os.Remove(a.made[i]))
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("restoring the checkout: %w", err)
	}
	return nil
}
