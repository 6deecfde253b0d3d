package publish

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/wop-cli/wop/internal/exitcode"
	"github.com/wop-cli/wop/internal/invocation"
	"github.com/wop-cli/wop/internal/registry"
)

// ExitError gives Run's errors their exit codes and hints. conflict gives
// a *ConflictError the hint that fits what the caller has (the archive
// named, or the one a build left); it exits Conflict. invoked is the
// command that started wop, for the hints that name one.
func ExitError(ctx context.Context, err error, invoked invocation.Name, conflict func(*ConflictError) error) error {
	var noWrite *NoWriteAPIError
	var noCreds *NoCredentialsError
	var c *ConflictError
	var upload *UploadError
	switch {
	case errors.As(err, &noWrite):
		return exitcode.WithHint(err, "stage the files into a checkout of its repository with --stage CHECKOUT, then open a pull request")
	case errors.As(err, &noCreds):
		return &exitcode.Error{Code: exitcode.Auth, Err: exitcode.WithHint(err, registry.TokenHint(invoked))}
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

// Conflict is what a version conflict's hint can point at.
type Conflict struct {
	Target     string          // the directory or archive the user named
	Built      bool            // publish built Target into Local
	Local      string          // where the build goes, which still holds what it held
	LocalShown string          // Local as messages name it
	TarballURL string          // the archive the registry serves at that version
	Invoked    invocation.Name // the command that started wop, for 'wop pack verify'
}

// Hint gives a version conflict the hint that fits what the user has: the
// archive they named, or the untouched one at Local, or none.
func (c Conflict) Hint(err *ConflictError) error {
	if !c.Built {
		return exitcode.WithHint(err, fmt.Sprintf("versions are immutable: bump the version; '%s' shows which entries of a source differ from this archive", c.Invoked.Cmd("pack verify "+c.Target+" --source DIR")))
	}
	manifest := filepath.Join(c.Target, "pack.json")
	if _, statErr := os.Stat(c.Local); statErr == nil {
		return exitcode.WithHint(err, fmt.Sprintf("versions are immutable: bump the version in %s. %s was left as it was: if it is the published archive, '%s' shows which entries of the source changed",
			manifest, c.LocalShown, c.Invoked.Cmd("pack verify "+c.LocalShown+" --source "+c.Target)))
	}
	return exitcode.WithHint(err, fmt.Sprintf("versions are immutable: bump the version in %s; to see what changed, download %s and run '%s'",
		manifest, c.TarballURL, c.Invoked.Cmd("pack verify FILE --source "+c.Target)))
}
