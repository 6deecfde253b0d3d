package stage

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/exitcode"
	"github.com/wop-cli/wop/internal/registry"
)

// TestExitError: a tree or checkout that cannot be read is usage, a key
// the checkout lacks gets the hint that fits, a conflict exits Conflict.
func TestExitError(t *testing.T) {
	plain := errors.New("x")
	var usage *exitcode.UsageError
	if err := ExitError(&TreeError{Err: plain}); !errors.As(err, &usage) {
		t.Errorf("tree: %v, want a usage error", err)
	}
	var h exitcode.Hinter
	if err := ExitError(&KeyError{Err: &registry.OriginError{}}); !errors.As(err, &h) || !strings.Contains(h.Hint(), "registry's own origin") {
		t.Errorf("key off origin: %v", err)
	}
	if err := ExitError(&KeyError{Err: plain}); !errors.As(err, &h) || !strings.Contains(h.Hint(), "add the registry's copy") {
		t.Errorf("key: %v", err)
	}
	var xe *exitcode.Error
	if err := ExitError(fmt.Errorf("v: %w", registry.ErrConflict)); !errors.As(err, &xe) || xe.Code != exitcode.Conflict {
		t.Errorf("conflict: %v", err)
	}
	if err := ExitError(plain); err != plain {
		t.Errorf("plain: %v", err)
	}
}
