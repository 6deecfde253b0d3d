package stage

import (
	"errors"

	"github.com/wop-cli/wop/internal/exitcode"
	"github.com/wop-cli/wop/internal/registry"
)

// ExitError gives Publish's errors their exit codes and hints.
func ExitError(err error) error {
	var tree *TreeError
	var key *KeyError
	var origin *registry.OriginError
	switch {
	case errors.Is(err, registry.ErrUnreadable), errors.As(err, &tree):
		return &exitcode.UsageError{Err: err}
	case errors.As(err, &key) && errors.As(err, &origin):
		return exitcode.WithHint(err, "a checkout stands in for the registry's own origin only; the key's publicKeyUrl must be a path or a URL on it")
	case errors.As(err, &key):
		return exitcode.WithHint(err, "add the registry's copy of the public key to the checkout, or sign with a key the checkout lists")
	case errors.Is(err, registry.ErrConflict):
		return &exitcode.Error{Code: exitcode.Conflict, Err: err}
	}
	return err
}
