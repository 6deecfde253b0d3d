package agf

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/wop-cli/wop/internal/pack"
)

// WriteImport writes an import's files as one set: all or none. It refuses
// to replace a file a new agent would clobber; a re-import (im.Updated)
// replaces the agent's own files.
func WriteImport(dir string, im *Imported) error {
	names := slices.Sorted(maps.Keys(im.Files))
	names = slices.DeleteFunc(names, func(n string) bool { return n == pack.ManifestName })
	for _, name := range names {
		if err := noLinkedFolder(dir, name); err != nil {
			return err
		}
		if !im.Updated {
			_, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(name)))
			var pe *fs.PathError
			switch {
			case err == nil:
				return fmt.Errorf("%s already exists in the pack; choose another --agent-id", name)
			case errors.Is(err, fs.ErrNotExist):
			case errors.As(err, &pe):
				return fmt.Errorf("%s: %w", name, pe.Err)
			default:
				return err
			}
		}
	}
	return writeSet(dir, im.Files, append(names, pack.ManifestName))
}

// noLinkedFolder refuses a file whose folder in the pack (prompts/,
// schemas/) is a symlink: writing through it would put the file outside the
// pack, where lint and build do not look either.
func noLinkedFolder(dir, name string) error {
	rel := ""
	for _, part := range strings.Split(path.Dir(name), "/") {
		if part == "." {
			break
		}
		rel = path.Join(rel, part)
		info, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(rel)))
		if errors.Is(err, fs.ErrNotExist) {
			return nil // created by the import, as a real folder
		}
		if err != nil {
			return err
		}
		if info.Mode()&fs.ModeSymlink != 0 {
			return fmt.Errorf("%s is a symlink; the import writes %s only inside the pack: replace the link with a folder", rel, name)
		}
	}
	return nil
}

// writeSet writes files under dir in two phases: each to a temporary file
// beside its target, and only when every one is written, each renamed into
// place (in order: pack.json last, so a pack never names a file that is not
// there yet). A failure in the first phase leaves dir as it was: the
// temporaries and any directory it created are removed.
func writeSet(dir string, files map[string][]byte, order []string) (err error) {
	var temps, created []string
	defer func() {
		if err == nil {
			return
		}
		for _, t := range temps {
			os.Remove(t)
		}
		for _, d := range slices.Backward(created) {
			os.Remove(d) // only empty directories go
		}
	}()
	for _, name := range order {
		target := filepath.Join(dir, filepath.FromSlash(name))
		made, err := mkdirAll(filepath.Dir(target))
		created = append(created, made...)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		tmp, err := writeTemp(target, files[name])
		if tmp != "" {
			temps = append(temps, tmp)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	for i, name := range order {
		if err := os.Rename(temps[i], filepath.Join(dir, filepath.FromSlash(name))); err != nil {
			return fmt.Errorf("%s: %w; the files before it in the set are already in place", name, err)
		}
	}
	return nil
}

// mkdirAll creates dir and its missing parents, returning those it made,
// outermost first.
func mkdirAll(dir string) ([]string, error) {
	var missing []string
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); err == nil || !errors.Is(err, fs.ErrNotExist) || filepath.Dir(d) == d {
			break
		}
		missing = append(missing, d)
	}
	slices.Reverse(missing)
	for i, d := range missing {
		if err := os.Mkdir(d, 0o755); err != nil {
			return missing[:i], err
		}
	}
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return missing, fmt.Errorf("%s is not a directory", filepath.Base(dir))
	}
	return missing, nil
}

// writeTemp writes data to a new temporary file beside target and returns
// its name.
func writeTemp(target string, data []byte) (string, error) {
	f, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".tmp-*")
	if err != nil {
		return "", err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return f.Name(), err
	}
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		return f.Name(), err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return f.Name(), err
	}
	return f.Name(), f.Close()
}
