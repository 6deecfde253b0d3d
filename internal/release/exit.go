package release

import (
	"errors"

	"github.com/wop-cli/wop/internal/exitcode"
)

// ExitError gives Previous's errors their exit codes: a reference that
// cannot be used exits Usage, a registry that could not be reached Network.
func ExitError(err error) error {
	var input *InputError
	var unreachable *UnreachableError
	switch {
	case errors.As(err, &input):
		return &exitcode.UsageError{Err: err}
	case errors.As(err, &unreachable):
		return &exitcode.Error{Code: exitcode.Network, Err: err}
	}
	return err
}
