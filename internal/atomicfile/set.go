package atomicfile

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"time"
)

// Set writes files that belong together (an archive and its signature,
// manifest and hash) so that after a crash or kill at any moment the folder
// holds the old set, the new set, or either with files missing, never a
// file of one beside a file of the other:
//
//  1. every new file is written to a temporary name (Add);
//  2. the new files are synced to disk, all at once (Commit): one wait for
//     the set, not one per file (a Batch syncs many sets in one wave);
//  3. the old set's files are removed, first to last, and the folder synced;
//  4. the new files are renamed into place, first to last, and the folder
//     synced.
//
// While step 3 runs, only old files remain; once step 4 starts, only new
// ones, and each is complete on disk before its name appears (step 2). A
// failure before step 3 leaves the old set untouched.
type Set struct {
	dir     string
	pending []pending
	// Hook, when set, is called after every change a reader of the folder
	// could see (a removal or a rename), with the name changed. Tests use it
	// to look at the folder between any two steps.
	Hook func(name string)
}

type pending struct {
	tmp, final string
	file       *os.File // open until synced in Commit; nil once synced (Adopt: synced by its writer)
}

// NewSet starts a set of files in dir.
func NewSet(dir string) *Set { return &Set{dir: dir} }

// Add writes one file of the set, what fill writes (buffered), to a
// temporary name. name is relative to the set's folder. Files are published
// in the order added.
func (s *Set) Add(name string, perm os.FileMode, fill func(io.Writer) error) error {
	return s.add(name, perm, buffered(fill))
}

func (s *Set) add(name string, perm os.FileMode, fill func(io.Writer) error) error {
	final := filepath.Join(s.dir, name)
	f, err := createTemp(final, perm, fill)
	if err != nil {
		return err
	}
	s.pending = append(s.pending, pending{tmp: f.Name(), final: final, file: f})
	return nil
}

// Adopt adds a complete file already written and synced elsewhere in the
// same file system (a scratch folder): Commit renames it in as name.
func (s *Set) Adopt(path, name string) {
	s.pending = append(s.pending, pending{tmp: path, final: filepath.Join(s.dir, name)})
}

// AddBytes adds a file holding data.
func (s *Set) AddBytes(name string, data []byte, perm os.FileMode) error {
	return s.add(name, perm, bytesFill(data))
}

// Commit removes the old set's files (every name in old, whether or not the
// new set has it), then renames the new files into place: a Batch of one,
// never cancelled.
func (s *Set) Commit(old []string) error {
	var b Batch
	var err error
	b.Add(s, old, func(e error) { err = e })
	b.Commit(context.Background())
	return err
}

// Abort removes the temporary files not yet published. It is safe to call
// after Commit.
func (s *Set) Abort() {
	for _, p := range s.pending {
		if p.file != nil {
			p.file.Close()
		}
		os.Remove(p.tmp)
	}
	s.pending = nil
}

// prepare checks, once the set is synced, that it may be published: no
// temporary file is past its deadline and no name it replaces or removes is
// anything but a regular file. It returns the old names present, the only
// ones to remove.
func (s *Set) prepare(old []string, now time.Time) (present []string, err error) {
	for _, p := range s.pending {
		if err := checkDeadline(p.tmp, now); err != nil {
			return nil, err
		}
	}
	for _, name := range old {
		ok, err := replaceable(filepath.Join(s.dir, name))
		if err != nil {
			return nil, err
		}
		if ok {
			present = append(present, name)
		}
	}
	for _, p := range s.pending {
		if _, err := replaceable(p.final); err != nil {
			return nil, err
		}
	}
	return present, nil
}

// removeOld removes the old set's files, first to last.
func (s *Set) removeOld(present []string) error {
	for _, name := range present {
		err := os.Remove(filepath.Join(s.dir, name))
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		s.hook(name)
	}
	return nil
}

// rename moves the new files into place, first to last; on failure the
// rest are removed.
func (s *Set) rename() error {
	for i, p := range s.pending {
		if err := os.Rename(p.tmp, p.final); err != nil {
			s.pending = s.pending[i:]
			s.Abort()
			return err
		}
		s.hook(filepath.Base(p.final))
	}
	s.pending = nil
	return nil
}

func (s *Set) hook(name string) {
	if s.Hook != nil {
		s.Hook(name)
	}
}
