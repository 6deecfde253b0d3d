package sigstorehelper

import (
	"errors"

	"github.com/wop-cli/wop/internal/exitcode"
)

// ExitError gives FindIDToken's errors their exit codes and hints: no
// token at all is a usage error; GitHub Actions refusing one names the
// permission the job lacks.
func ExitError(err error) error {
	var actions *ActionsTokenError
	switch {
	case errors.Is(err, ErrNoIDToken):
		return &exitcode.UsageError{Err: err}
	case errors.As(err, &actions):
		return exitcode.WithHint(err, "the job needs 'permissions: id-token: write'")
	}
	return err
}
