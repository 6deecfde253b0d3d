package release

import (
	"errors"
	"testing"

	"github.com/wop-cli/wop/internal/exitcode"
)

// TestExitError: bad references exit Usage, an unreachable registry
// Network, the rest as they are.
func TestExitError(t *testing.T) {
	plain := errors.New("x")
	var usage *exitcode.UsageError
	if err := ExitError(&InputError{Err: plain}); !errors.As(err, &usage) {
		t.Errorf("input: %v", err)
	}
	var xe *exitcode.Error
	if err := ExitError(&UnreachableError{Err: plain}); !errors.As(err, &xe) || xe.Code != exitcode.Network {
		t.Errorf("unreachable: %v", err)
	}
	if err := ExitError(plain); err != plain {
		t.Errorf("plain: %v", err)
	}
}
