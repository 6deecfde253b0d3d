package publish

import (
	"context"
	"errors"

	"github.com/wop-cli/wop/internal/exitcode"
	"github.com/wop-cli/wop/internal/registry"
)

// ExitError gives Run's errors their exit codes and hints. conflict gives
// a *ConflictError the hint that fits what the caller has (the archive
// named, or the one a build left); it exits Conflict.
func ExitError(ctx context.Context, err error, conflict func(*ConflictError) error) error {
	var noWrite *NoWriteAPIError
	var noCreds *NoCredentialsError
	var c *ConflictError
	var upload *UploadError
	switch {
	case errors.As(err, &noWrite):
		return exitcode.WithHint(err, "stage the files into a checkout of its repository with --stage CHECKOUT, then open a pull request")
	case errors.As(err, &noCreds):
		return &exitcode.Error{Code: exitcode.Auth, Err: exitcode.WithHint(err, registry.TokenHint)}
	case errors.As(err, &c):
		return &exitcode.Error{Code: exitcode.Conflict, Err: conflict(c)}
	case errors.As(err, &upload):
		return uploadExitError(ctx, upload.Err)
	}
	return registry.ExitError(ctx, err)
}

// uploadExitError classifies the PUT's failure: the registry's status, or
// an interruption mid-upload (safe to repeat).
func uploadExitError(ctx context.Context, err error) error {
	var se *registry.StatusError
	if errors.As(err, &se) {
		switch {
		case se.StatusCode == 401 || se.StatusCode == 403:
			return &exitcode.Error{Code: exitcode.Auth, Err: err}
		case se.StatusCode == 409:
			return &exitcode.Error{Code: exitcode.Conflict, Err: err}
		case se.StatusCode == 429 || se.StatusCode >= 500:
			return &exitcode.Error{Code: exitcode.Network, Err: err}
		}
		return err
	}
	if errors.Is(ctx.Err(), context.Canceled) {
		return &exitcode.Error{Code: exitcode.Interrupted, Err: errors.New("interrupted during the upload; run the same command again: an identical re-upload is safe")}
	}
	return registry.ExitError(ctx, err)
}
