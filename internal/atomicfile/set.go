package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// Set writes files that belong together (an archive and its signature,
// manifest and hash) so that after a crash or kill at any moment the folder
// holds the old set, the new set, or either with files missing, never a
// file of one beside a file of the other:
//
//  1. every new file is written to a temporary name (Add);
//  2. the new files are synced to disk, all at once (Commit): one wait for
//     the set, not one per file;
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

// Add writes one file of the set to a temporary name. name is relative to
// the set's folder. Files are published in the order added.
func (s *Set) Add(name string, perm os.FileMode, fill func(io.Writer) error) error {
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
	return s.Add(name, perm, bytesFill(data))
}

// Commit removes the old set's files (every name in old, whether or not the
// new set has it), then renames the new files into place.
func (s *Set) Commit(old []string) error {
	if err := s.syncAll(); err != nil {
		s.Abort()
		return err
	}
	now := time.Now()
	for _, p := range s.pending {
		if err := checkDeadline(p.tmp, now); err != nil {
			s.Abort()
			return err
		}
	}
	for _, name := range old {
		if err := checkReplaceable(filepath.Join(s.dir, name)); err != nil {
			s.Abort()
			return err
		}
	}
	for _, p := range s.pending {
		if err := checkReplaceable(p.final); err != nil {
			s.Abort()
			return err
		}
	}
	removed := false
	for _, name := range old {
		err := os.Remove(filepath.Join(s.dir, name))
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			s.Abort()
			return err
		}
		if err == nil {
			removed = true
			s.hook(name)
		}
	}
	// The removals must reach the disk before any rename: a crash must not
	// keep a new archive and lose the removal of an old signature.
	if removed {
		if err := syncDir(s.dir); err != nil {
			s.Abort()
			return err
		}
	}
	for i, p := range s.pending {
		if err := os.Rename(p.tmp, p.final); err != nil {
			s.pending = s.pending[i:]
			s.Abort()
			return err
		}
		s.hook(filepath.Base(p.final))
	}
	s.pending = nil
	return syncDir(s.dir)
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

// syncAll syncs and closes every file Add wrote, concurrently: the file
// system can then make them durable in one journal commit, where syncing
// each as it is written waits for one commit per file.
func (s *Set) syncAll() error {
	errs := make([]error, len(s.pending))
	var wg sync.WaitGroup
	for i, p := range s.pending {
		if p.file == nil {
			continue
		}
		wg.Go(func() { errs[i] = syncClose(p.file, p.final) })
	}
	wg.Wait()
	for i := range s.pending {
		s.pending[i].file = nil // closed, whether or not the sync succeeded
	}
	return errors.Join(errs...)
}

func (s *Set) hook(name string) {
	if s.Hook != nil {
		s.Hook(name)
	}
}
