// Package exitcode holds wop's exit codes, which are part of its interface
// (CI scripts branch on them), and the errors that carry one, so that an
// internal package can say how its error ends the process, next to the
// typed errors it classifies, without importing a command.
package exitcode

import "fmt"

// The exit codes; cmd/wop's cli package documents each (ExitCodeTable).
const (
	OK          = 0
	Findings    = 1
	Usage       = 2
	Network     = 3
	Auth        = 4
	Conflict    = 5
	Internal    = 70
	Interrupted = 130
)

// Error carries a specific exit code chosen by the code that knows what
// went wrong.
type Error struct {
	Code int
	Err  error
}

func (e *Error) Error() string { return e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// UsageError is a mistake in how wop was called, or input it cannot read.
// It exits Usage.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// Usagef returns a *UsageError.
func Usagef(format string, args ...any) error {
	return &UsageError{Err: fmt.Errorf(format, args...)}
}

// InternalError is a failure of wop itself (a panic, a broken invariant):
// it exits Internal, so CI can tell it from findings.
type InternalError struct{ Err error }

func (e *InternalError) Error() string {
	return fmt.Sprintf("internal error: %v\nthis is a bug in wop; please report it with the command you ran", e.Err)
}
func (e *InternalError) Unwrap() error { return e.Err }

// Hinter is an error with a next step for the user, printed as "hint: ...".
type Hinter interface{ Hint() string }

// WithHint attaches a next step to err.
func WithHint(err error, hint string) error { return &hinted{err: err, hint: hint} }

type hinted struct {
	err  error
	hint string
}

func (h *hinted) Error() string { return h.err.Error() }
func (h *hinted) Unwrap() error { return h.err }
func (h *hinted) Hint() string  { return h.hint }
