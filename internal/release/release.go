// Package release loads the previous release of a pack: the version a new
// one is compared with by breaking, bump and lint --against. It is a .tgz,
// a directory, git:REF (the pack's directory at a commit, read with `git
// archive`), NAME@VERSION or "registry" (the highest published version
// below the pack's own), fetched from a registry and verified before it is
// cached.
package release

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/wop-cli/wop/internal/lintrun"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/registry"
	"github.com/wop-cli/wop/internal/tarball"
)

// ErrNoPrevious means the reference names no earlier release: a first
// release.
var ErrNoPrevious = errors.New("no previous release")

// InputError is a reference, or a pack, that cannot be read as asked: the
// caller's mistake (a usage error), never the network's.
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }

func inputErrorf(format string, args ...any) error {
	return &InputError{Err: fmt.Errorf(format, args...)}
}

// UnreachableError means the registry could not give the release (and the
// cache held none).
type UnreachableError struct{ Err error }

func (e *UnreachableError) Error() string { return "registry: " + e.Err.Error() }
func (e *UnreachableError) Unwrap() error { return e.Err }

// Options say where a release is looked for.
type Options struct {
	// Abs makes a path the user typed absolute (relative to their working
	// directory).
	Abs func(string) string
	// Registry is the registry NAME@VERSION and "registry" are fetched
	// from ("" if none is set), Token finds its token when one is needed.
	Registry  string
	Token     func(registryURL string) (registry.Token, error)
	UserAgent string
	Transport http.RoundTripper
	// CacheRoot is wop's cache folder: registry documents and verified
	// archives are kept under it, so a rerun works offline. "" caches
	// nothing.
	CacheRoot string
	Now       func() time.Time
	Limits    tarball.Limits
}

// Previous loads the release ref names for the pack at packPath (absolute),
// as a pack. The returned cleanup removes any temporary file; it is never
// nil.
func Previous(ctx context.Context, ref, packPath string, opt Options) (*pack.Pack, func(), error) {
	noop := func() {}
	if rev, ok := strings.CutPrefix(ref, "git:"); ok {
		return fromGit(ctx, rev, PackDir(packPath), opt.Limits)
	}
	if ref == "registry" || strings.Contains(ref, "@") && !exists(opt.Abs(ref)) {
		return fromRegistry(ctx, ref, packPath, opt)
	}
	pk, err := pack.Load(opt.Abs(ref), opt.Limits)
	if err != nil {
		return nil, noop, inputErrorf("--against %s: %v", ref, lintrun.WithoutPath(err))
	}
	pk.Display = pack.DisplayName(ref)
	return pk, noop, nil
}

// PackDir is the directory a pack argument lives in: itself, or the folder
// holding a pack.json or .tgz.
func PackDir(p string) string {
	if info, err := os.Stat(p); err == nil && info.IsDir() {
		return p
	}
	return filepath.Dir(p)
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
