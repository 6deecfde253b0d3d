package interrupt

import (
	"os"
	"syscall"
	"testing"
	"time"
)

// TestSecondSignal: a second signal right after the first (timeout(1)
// signalling the process and then its group) is the same Ctrl-C and waits
// for the grace; one later than echoWindow exits at once; a command that
// finishes first is not cut short.
func TestSecondSignal(t *testing.T) {
	cases := []struct {
		name   string
		second bool          // a second signal is waiting
		since  time.Duration // how long ago the first one came
		finish bool
		want   bool
		// the grace must (or must not) have run out before secondSignal returns
		waitsGrace bool
	}{
		{"an echo of the first waits for the grace", true, 0, false, true, true},
		{"a second Ctrl-C exits at once", true, 2 * echoWindow, false, true, false},
		{"no second signal: the grace ends", false, 0, false, true, true},
		{"the command finishes first", false, 0, true, false, false},
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			sigs := make(chan os.Signal, 2)
			done := make(chan struct{})
			if tt.second {
				sigs <- syscall.SIGINT
			}
			if tt.finish {
				close(done)
			}
			start := time.Now()
			if got := secondSignal(sigs, done, start.Add(-tt.since)); got != tt.want {
				t.Fatalf("exit = %v, want %v", got, tt.want)
			}
			if waited := time.Since(start) >= interruptGrace; waited != tt.waitsGrace {
				t.Errorf("waited for the grace: %v, want %v", waited, tt.waitsGrace)
			}
		})
	}
}
