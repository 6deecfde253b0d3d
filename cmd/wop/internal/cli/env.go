// Package cli holds what every wop command shares: the injected environment,
// exit codes, and the errors that map to them. It imports no command.
package cli

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/wop-cli/wop/internal/invocation"
	"github.com/wop-cli/wop/internal/lintrun"
	"github.com/wop-cli/wop/internal/registry"
	"github.com/wop-cli/wop/internal/userdirs"
	"golang.org/x/term"
)

// Env is everything a command takes from the outside world. System builds
// the real one; tests build their own with buffers.
type Env struct {
	In          io.Reader
	Out, ErrOut io.Writer // Out: results; ErrOut: summaries, progress, errors
	Color       bool      // colour output: see ColorEnabled
	ErrTerminal bool      // ErrOut is a terminal: progress bars may be drawn
	Getenv      func(string) string
	WorkDir     string // base for relative paths
	Version     string
	// BuildID changes with every build of the binary (its size and mtime),
	// so caches keyed on it never outlive the rules that filled them.
	BuildID string
	// Now is the clock (cache ages); nil means time.Now.
	Now func() time.Time
	// HTTPClient carries the transport for registry traffic (its Transport
	// is what internal/registry's Client wraps); lint never calls it.
	HTTPClient func() *http.Client
	// ConfigDir is where wop keeps user settings (credentials).
	ConfigDir string
	// CacheDir is wop's cache root ("" disables caching): $WOP_CACHE_DIR,
	// or "wop" under the user cache directory; WOP_CACHE_DIR=off disables.
	CacheDir string
	// Invoked is the command the user typed to start wop ("npx wop" when
	// npm's entry point says so): hints name it through Invoked.Cmd.
	Invoked invocation.Name
}

// Lint is env as internal/lintrun, where lint's orchestration lives, sees
// it.
func (e *Env) Lint() *lintrun.Env {
	return &lintrun.Env{WorkDir: e.WorkDir, Getenv: e.Getenv, Out: e.Out, ErrOut: e.ErrOut, Version: e.Version,
		BuildID: e.BuildID, CacheDir: e.CacheDir, Now: e.Now, HTTPClient: e.HTTPClient, Invoked: e.Invoked}
}

// System returns the Env of the running process. It is the only place that
// reads os.Std*, the environment and the clock.
func System(version string) *Env {
	wd, _ := os.Getwd()
	return &Env{
		In:          os.Stdin,
		Out:         os.Stdout,
		ErrOut:      os.Stderr,
		Color:       ColorEnabled(os.Getenv, term.IsTerminal(int(os.Stdout.Fd()))),
		ErrTerminal: term.IsTerminal(int(os.Stderr.Fd())),
		Getenv:      os.Getenv,
		WorkDir:     wd,
		Version:     version,
		BuildID:     userdirs.BuildID(),
		Now:         time.Now,
		HTTPClient: func() *http.Client {
			// Phase timeouts only: an overall Timeout would fail long uploads.
			return &http.Client{Transport: registry.NewTransport(registry.DefaultTimeouts)}
		},
		CacheDir:  userdirs.CacheDir(os.Getenv, os.Stderr),
		ConfigDir: userdirs.ConfigDir(),
		Invoked:   invocation.FromEnv(os.Getenv),
	}
}

// Abs resolves p against the working directory.
func (e *Env) Abs(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(e.WorkDir, p)
}

// Rel names p for messages: relative to the working directory when below
// it, absolute otherwise.
func (e *Env) Rel(p string) string {
	if r, err := filepath.Rel(e.WorkDir, p); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return p
}

// Time is the current time by the Env's clock; the system's when Now is
// nil.
func (e *Env) Time() time.Time {
	if e.Now == nil {
		return time.Now()
	}
	return e.Now()
}
