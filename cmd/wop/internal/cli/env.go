// Package cli holds what every wop command shares: the injected environment,
// exit codes, and the errors that map to them. It imports no command.
package cli

import (
	"io"
	"os"
	"time"

	"golang.org/x/term"
)

// Env is everything a command takes from the outside world. System builds
// the real one; tests build their own with buffers.
type Env struct {
	In          io.Reader
	Out, ErrOut io.Writer // Out: results; ErrOut: summaries, progress, errors
	Color       bool      // colour output: Out is a terminal and NO_COLOR is unset
	Getenv      func(string) string
	WorkDir     string // base for relative paths
	Now         func() time.Time
	Version     string
}

// System returns the Env of the running process. It is the only place that
// reads os.Std*, the environment and the clock.
func System(version string) *Env {
	wd, _ := os.Getwd()
	_, noColor := os.LookupEnv("NO_COLOR")
	return &Env{
		In:      os.Stdin,
		Out:     os.Stdout,
		ErrOut:  os.Stderr,
		Color:   !noColor && term.IsTerminal(int(os.Stdout.Fd())),
		Getenv:  os.Getenv,
		WorkDir: wd,
		Now:     time.Now,
		Version: version,
	}
}
