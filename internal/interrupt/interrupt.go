// Package interrupt turns Ctrl-C (SIGINT) and SIGTERM into a cancelled
// context, so that commands stop and remove what they wrote, and ends the
// process if they do not in time.
package interrupt

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/wop-cli/wop/internal/exitcode"
)

// ErrInterrupted is the cause of a context cancelled by Ctrl-C (or SIGTERM).
var ErrInterrupted = errors.New("interrupted")

// interruptGrace is how long a command has, after the first Ctrl-C, to
// stop and remove its temporary files before the process exits anyway:
// Ctrl-C always ends wop within 200 ms.
const interruptGrace = 100 * time.Millisecond

// echoWindow is how soon after the first signal a second one counts as
// the same request: `timeout -s INT` and some CI runners signal the
// process and then its process group, so one Ctrl-C arrives twice within
// microseconds, and a person cannot press it twice that fast.
const echoWindow = 20 * time.Millisecond

// secondSignal waits, after the first signal at first, for a second one
// (ignoring an echo of the first) or for the grace to end: true means exit
// now, false that the command finished first (done).
func secondSignal(sigs <-chan os.Signal, done <-chan struct{}, first time.Time) bool {
	grace := time.NewTimer(interruptGrace)
	defer grace.Stop()
	for {
		select {
		case <-sigs:
			if time.Since(first) >= echoWindow {
				return true
			}
		case <-grace.C:
			return true
		case <-done:
			return false
		}
	}
}

// Context returns a context cancelled (with cause ErrInterrupted) by
// the first SIGINT or SIGTERM. Commands see it and stop, removing what
// they wrote; if one has not returned after interruptGrace, or a second
// signal comes, exit(exitcode.Interrupted) ends the process at once. stop
// releases the signal handler.
func Context(parent context.Context, exit func(int)) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case <-sigs:
		case <-done:
			return
		}
		cancel(ErrInterrupted)
		if secondSignal(sigs, done, time.Now()) {
			exit(exitcode.Interrupted)
		}
	}()
	return ctx, func() {
		signal.Stop(sigs)
		close(done)
		cancel(nil)
	}
}
