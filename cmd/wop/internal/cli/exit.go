package cli

import (
	"errors"

	"github.com/wop-cli/wop/internal/exitcode"
	"github.com/wop-cli/wop/internal/interrupt"
	"github.com/wop-cli/wop/internal/lintrun"
)

// Exit codes. They are part of wop's interface: CI scripts branch on them.
const (
	// ExitOK: success, and no finding at or above the failing severity.
	ExitOK = exitcode.OK
	// ExitFindings: lint or verification found errors (or warnings under
	// --strict), a gate refused (lint errors stopping build, sign, publish or
	// import; publish's namespace, key or signature checks), or any other
	// failure its message explains: an error no other code classifies (a
	// file that cannot be written, a git command that failed) exits 1, not
	// 70, because it is not a bug in wop and 70 asks for a bug report.
	ExitFindings = exitcode.Findings
	// ExitUsage: bad flags or arguments, or input that cannot be read at all.
	ExitUsage = exitcode.Usage
	// ExitNetwork: the registry could not be reached, or kept failing, after retries.
	ExitNetwork = exitcode.Network
	// ExitAuth: the registry refused the token (missing, wrong, or without rights).
	ExitAuth = exitcode.Auth
	// ExitConflict: the version is already published with other bytes.
	ExitConflict = exitcode.Conflict
	// ExitInternal: a bug in wop (a panic), not a finding or bad input; the
	// message asks for a report. EX_SOFTWARE in sysexits.h.
	ExitInternal = exitcode.Internal
	// ExitInterrupted: stopped by Ctrl-C (or SIGTERM); temporary files are
	// removed, earlier outputs left as they were.
	ExitInterrupted = exitcode.Interrupted
)

// ExitCodeDoc is one row of the exit code table.
type ExitCodeDoc struct {
	Code    int
	Meaning string // one line, no final period
}

// ExitCodeTable lists every exit code wop uses, in order: the source of
// `wop help exit-codes` and docs/exit-codes.md.
func ExitCodeTable() []ExitCodeDoc {
	return []ExitCodeDoc{
		{ExitOK, "success; no finding at or above the failing severity"},
		{ExitFindings, "lint errors (or warnings with --strict), a failed verify check, a gate that refused " +
			"(lint errors stopping build, sign, publish or import; publish's namespace, key or signature checks), " +
			"or any other failure the message explains, such as a file that cannot be written"},
		{ExitUsage, "bad usage or unreadable input: unknown command, help topic or flag, missing path, no pack.json, " +
			"not gzip, over a size ceiling, bad .wop.yaml"},
		{ExitNetwork, "the registry could not be reached, or kept failing after retries"},
		{ExitAuth, "no token, or the registry refused it (401/403)"},
		{ExitConflict, "the version is already published with other bytes"},
		{ExitInternal, "a bug in wop (a panic), never a finding or bad input; the message asks for a report"},
		{ExitInterrupted, "interrupted (Ctrl-C or SIGTERM); temporary files are removed"},
	}
}

// ExitError carries a specific exit code chosen by the code that knows
// what went wrong (internal packages return it too).
type ExitError = exitcode.Error

// ErrFindings is returned after findings were printed; it exits 1 silently.
var ErrFindings = errors.New("findings reported")

// UsageError is a mistake in how wop was called, or input it cannot read.
// It exits 2.
type UsageError = exitcode.UsageError

// Usagef returns a *UsageError.
func Usagef(format string, args ...any) error { return exitcode.Usagef(format, args...) }

// InternalError is a failure of wop itself (a panic, a broken invariant):
// it exits ExitInternal, so CI can tell it from findings.
type InternalError = exitcode.InternalError

// Hinter is an error with a next step for the user, printed as "hint: ...".
type Hinter = exitcode.Hinter

// ErrInterrupted is the cause of a context cancelled by Ctrl-C (or SIGTERM).
var ErrInterrupted = interrupt.ErrInterrupted

// ExitCode maps an error returned by a command to the process exit code.
func ExitCode(err error) int {
	var ue *UsageError
	var xe *ExitError
	var ie *InternalError
	var in *lintrun.InputError // lint's mistakes in what it was given
	switch {
	case err == nil:
		return ExitOK
	case errors.Is(err, ErrInterrupted):
		return ExitInterrupted
	case errors.As(err, &ie):
		return ExitInternal
	case errors.Is(err, ErrFindings):
		return ExitFindings
	case errors.As(err, &ue), errors.As(err, &in):
		return ExitUsage
	case errors.As(err, &xe):
		return xe.Code
	}
	return ExitFindings
}

// WithHint attaches a next step to err; the top level prints it as "hint:".
func WithHint(err error, hint string) error { return exitcode.WithHint(err, hint) }
