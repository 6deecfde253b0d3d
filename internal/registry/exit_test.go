package registry

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/wop-cli/wop/internal/exitcode"
)

// TestUnreadableDiscoveryIsUsage: a discovery document wop cannot read is
// unreadable input (exit 2, as the exit table says), not a network failure.
func TestUnreadableDiscoveryIsUsage(t *testing.T) {
	err := ExitError(context.Background(), fmt.Errorf("GET https://r.test/.well-known/openwop-registry.json: %w: discovery document over 4194304 bytes", ErrUnreadable))
	var usage *exitcode.UsageError
	if !errors.As(err, &usage) {
		t.Errorf("%v (%T), want a usage error", err, err)
	}
}

// TestExitErrorCodes: a cancelled run is interrupted, a timed-out one and
// a transport failure are network failures; other errors pass unchanged.
func TestExitErrorCodes(t *testing.T) {
	plain := errors.New("registry said no")
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	timedOut, stop := context.WithTimeout(context.Background(), 0)
	defer stop()
	<-timedOut.Done()
	for _, tt := range []struct {
		name string
		ctx  context.Context
		err  error
		want int
	}{
		{"cancelled", cancelled, plain, exitcode.Interrupted},
		{"timed out", timedOut, plain, exitcode.Network},
		{"transport", context.Background(), &TransportError{Err: plain}, exitcode.Network},
	} {
		var xe *exitcode.Error
		if err := ExitError(tt.ctx, tt.err); !errors.As(err, &xe) || xe.Code != tt.want {
			t.Errorf("%s: %v, want exit %d", tt.name, err, tt.want)
		}
	}
	if err := ExitError(context.Background(), plain); err != plain {
		t.Errorf("plain error became %v", err)
	}
}
