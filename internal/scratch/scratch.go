// Package scratch makes wop's working folders and files in the system
// temporary directory ($TMPDIR), and removes the ones a killed wop left
// there. The process that makes one holds a lock on it (flock) for as long
// as it uses it; the kernel drops the lock when that process ends, however
// it ends. So a later run can prove an entry is no longer in use: it is
// unlocked and older than MinAge. Sweep touches nothing else.
package scratch

import (
	"os"
	"path/filepath"
	"strings"
	"time"
)

// MinAge is how old an unlocked entry must be before Sweep removes it: far
// longer than the moment between making an entry and locking it, and long
// enough that an older wop, which did not lock its entries, has finished.
const MinAge = time.Hour

// Temp is one working folder or file, locked until Remove.
type Temp struct {
	Path string
	lock *os.File
}

// Dir makes a folder named prefix + random in $TMPDIR and locks it.
func Dir(prefix string) (*Temp, error) {
	path, err := os.MkdirTemp("", prefix+"*")
	if err != nil {
		return nil, err
	}
	return hold(path)
}

// File makes a file named after pattern (as os.CreateTemp) in $TMPDIR and
// locks it; the caller writes it through the returned *os.File and closes
// that as usual: the lock is held apart from it.
func File(pattern string) (*Temp, *os.File, error) {
	f, err := os.CreateTemp("", pattern)
	if err != nil {
		return nil, nil, err
	}
	t, err := hold(f.Name())
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return t, f, nil
}

// hold locks path for this process, or removes it and fails.
func hold(path string) (*Temp, error) {
	l, err := os.Open(path)
	if err == nil {
		if err = lock(l, true); err != nil {
			l.Close()
		}
	}
	if err != nil {
		os.RemoveAll(path)
		return nil, err
	}
	return &Temp{Path: path, lock: l}, nil
}

// Remove removes the folder or file, then drops the lock. It is safe to
// call twice.
func (t *Temp) Remove() error {
	if t.lock == nil {
		return nil
	}
	err := os.RemoveAll(t.Path)
	t.lock.Close()
	t.lock = nil
	return err
}

// Sweep removes the entries of $TMPDIR whose names start with prefix that
// a wop left behind: only folders and regular files this user owns, older
// than MinAge, and not locked by a running wop. Errors are ignored: a
// sweep is housekeeping, never a reason to fail the command.
func Sweep(prefix string) {
	dir := os.TempDir()
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	cutoff := time.Now().Add(-MinAge)
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), prefix) || !(e.IsDir() || e.Type().IsRegular()) {
			continue
		}
		path := filepath.Join(dir, e.Name())
		if info, err := e.Info(); err != nil || info.ModTime().After(cutoff) || !ownedByMe(info) {
			continue
		}
		sweepOne(path)
	}
}

// sweepOne removes path if no process holds its lock, holding the lock
// while it removes so a wop starting to use it cannot.
func sweepOne(path string) {
	l, err := openNoFollow(path)
	if err != nil {
		return
	}
	defer l.Close()
	if lock(l, false) != nil {
		return // in use
	}
	os.RemoveAll(path)
}
