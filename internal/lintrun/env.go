// Package lintrun is the one path from inputs to findings that `wop pack
// lint` and `wop lsp` share: find each pack, its .wop.yaml and its catalog,
// run the rules, lint AgentFormat files outside packs, and apply the info
// and baseline filters. An overlay of unsaved contents makes the editor's
// verdict the CLI's verdict on the same bytes.
package lintrun

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"path/filepath"
	"strings"
	"time"

	"github.com/wop-cli/wop/internal/invocation"
	"github.com/wop-cli/wop/internal/pack"
)

// Env is what a run needs of the process: where relative paths start, the
// environment, where warnings go, and the cache and network settings.
type Env struct {
	WorkDir string
	Getenv  func(string) string
	// ErrOut receives warnings (configuration, catalog, baseline) and the
	// lines --fix prints; Out receives --diff's patch.
	Out, ErrOut io.Writer
	Version     string
	BuildID     string // identifies the binary: the result cache's salt
	CacheDir    string // "" disables caching
	Now         func() time.Time
	// HTTPClient carries the transport for URL catalogs.
	HTTPClient func() *http.Client
	// Invoked is the command that started wop, for hints ("npx wop").
	Invoked invocation.Name
}

// Abs makes p absolute against WorkDir.
func (e *Env) Abs(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(e.WorkDir, p)
}

// Rel names p for messages: relative to WorkDir when below it.
func (e *Env) Rel(p string) string {
	if r, err := filepath.Rel(e.WorkDir, p); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return p
}

// InputError is a mistake in what the run was given (a path, a flag's
// file, a configuration) or input it cannot read: the CLI exits 2.
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }

// inputf returns an *InputError.
func inputf(format string, args ...any) error {
	return &InputError{Err: fmt.Errorf(format, args...)}
}

// WithoutPath drops the absolute path an *fs.PathError carries; callers
// name the file as the user typed it.
func WithoutPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	if errors.Is(err, pack.ErrNoManifest) {
		return errors.New("no pack.json here or in its subdirectories: point at a pack directory, a pack.json or a .tgz")
	}
	return err
}
