package lsp

import (
	"path/filepath"
	"slices"
	"time"

	"github.com/wop-cli/wop/internal/agf"
	"github.com/wop-cli/wop/internal/config"
	"github.com/wop-cli/wop/internal/pack"
)

// unit is what one lint run covers: a pack (every file in it), or a file
// lint reads outside any pack (an AgentFormat file, a .wop.yaml).
type unit struct {
	pack  string // the pack directory
	loose string // the file, when pack is ""
}

// anchor is the file a unit's own problems (a pack that cannot be read, a
// catalog that cannot be opened) are shown on.
func (u unit) anchor() string {
	if u.pack != "" {
		return filepath.Join(u.pack, pack.ManifestName)
	}
	return u.loose
}

func isConfig(path string) bool {
	return slices.Contains(config.FileNames, filepath.Base(path))
}

// unitOf is the unit a file belongs to; ok is false for a file nothing
// lints.
func unitOf(path string) (unit, bool) {
	if dir, ok := pack.Owner(path); ok {
		return unit{pack: dir}, true
	}
	if agf.IsFile(filepath.Base(path)) || isConfig(path) {
		return unit{loose: path}, true
	}
	return unit{}, false
}

// changed marks what a change to path's buffer may alter: its own unit,
// and for a configuration the units of every open document below it.
// With knownOnly (a change on disk) a unit nothing shows is left alone: the
// workspace's other packs are not linted for a file written in them.
func (s *Server) changed(path string, knownOnly bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if u, ok := s.unitOf(path); ok && (!knownOnly || s.known(u)) {
		s.dirty[u] = true
	}
	s.cache.fileChanged(path)
	if isConfig(path) {
		dir := filepath.Dir(path)
		for open := range s.docs {
			if u, ok := s.unitOf(open); ok && under(open, dir) {
				s.dirty[u] = true
			}
		}
		for u := range s.unitFindings {
			if u.pack != "" && under(u.pack, dir) {
				s.dirty[u] = true
			}
		}
	}
	s.poke()
}

// changedOnDisk is changed for a file written, created or deleted on disk:
// a pack.json may change what a catalog (a registry checkout) defines, so
// catalogs are read again and every unit shown is linted again.
func (s *Server) changedOnDisk(path string) {
	s.cache.diskChanged(path)
	if filepath.Base(path) == pack.ManifestName {
		s.lintMu.Lock()
		s.loader = newLoader()
		s.lintMu.Unlock()
		s.mu.Lock()
		for u := range s.unitFindings {
			s.dirty[u] = true
		}
		s.mu.Unlock()
	}
	s.changed(path, true)
}

// known reports whether a unit has an open document or shows findings
// (s.mu held).
func (s *Server) known(u unit) bool {
	_, shown := s.unitFindings[u]
	return shown || s.hasOpen(u)
}

// hasOpen reports whether a document of u is open (s.mu held).
func (s *Server) hasOpen(u unit) bool {
	for open := range s.docs {
		if v, ok := s.unitOf(open); ok && v == u {
			return true
		}
	}
	return false
}

// poke wakes the lint loop (s.mu held).
func (s *Server) poke() {
	now := time.Now()
	s.burst = now.Sub(s.lastChange) < s.opt.Debounce
	s.lastChange = now
	select {
	case s.wake <- struct{}{}:
	default:
	}
}
