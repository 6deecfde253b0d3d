package cli

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// ErrInterrupted is the cause of a context cancelled by Ctrl-C (or SIGTERM).
var ErrInterrupted = errors.New("interrupted")

// interruptGrace is how long a command has, after the first Ctrl-C, to
// stop and remove its temporary files before the process exits anyway:
// Ctrl-C always ends wop within 200 ms.
const interruptGrace = 100 * time.Millisecond

// SignalContext returns a context cancelled (with cause ErrInterrupted) by
// the first SIGINT or SIGTERM. Commands see it and stop, removing what
// they wrote; if one has not returned after interruptGrace, or a second
// signal comes, exit(ExitInterrupted) ends the process at once. stop
// releases the signal handler.
func SignalContext(parent context.Context, exit func(int)) (ctx context.Context, stop func()) {
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
		select {
		case <-sigs:
		case <-time.After(interruptGrace):
		case <-done:
			return
		}
		exit(ExitInterrupted)
	}()
	return ctx, func() {
		signal.Stop(sigs)
		close(done)
		cancel(nil)
	}
}
