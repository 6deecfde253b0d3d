package registry

import (
	"context"
	"errors"
	"fmt"
	"net"

	"github.com/wop-cli/wop/internal/exitcode"
)

// ExitError gives a registry conversation's failures their exit codes:
// transport failures and a timed-out ctx exit Network, a cancelled ctx
// Interrupted (nothing was published), an unreadable answer Usage; the
// registry's own answers keep theirs.
func ExitError(ctx context.Context, err error) error {
	var ne net.Error
	var te *TransportError
	switch {
	case errors.Is(ctx.Err(), context.Canceled):
		return &exitcode.Error{Code: exitcode.Interrupted, Err: errors.New("interrupted; nothing was published: run the same command again")}
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return &exitcode.Error{Code: exitcode.Network, Err: fmt.Errorf("gave up after --timeout: %w", err)}
	case errors.As(err, &ne), errors.As(err, &te):
		return &exitcode.Error{Code: exitcode.Network, Err: err}
	case errors.Is(err, ErrUnreadable):
		return &exitcode.UsageError{Err: err}
	}
	return err
}
