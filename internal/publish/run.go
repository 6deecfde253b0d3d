package publish

import (
	"cmp"
	"context"
	"fmt"
	"io"

	"github.com/wop-cli/wop/internal/registry"
)

// Request is one publish of a checked archive to a registry.
type Request struct {
	Client  *registry.Client
	Archive *Archive
	// DryRun runs every check and sends nothing.
	DryRun bool
	// HasCredentials says a token, or credentials in the registry URL, go
	// with the upload: without them a registry would refuse it after
	// receiving it whole, so it is refused before.
	HasCredentials bool
	// Body, if set, wraps each upload attempt's reader (a progress bar).
	Body func(r io.Reader, size int64) io.Reader
}

// Outcome is what a publish did, or for a dry run would do.
type Outcome struct {
	Status   string // published, already-published, dry-run
	Registry string // the registry's base URL
	// Put is the archive's URL as the registry's endpoints name it: where
	// a dry run would PUT it, or, with a ConflictError, the published one.
	Put string
	// Theirs is the integrity the registry lists for the version it already
	// holds ("" when it held none): with already-published it may differ
	// from the archive's, another gzip of the same tar.
	Theirs string
}

// NoWriteAPIError is a registry that takes new versions another way
// (pull requests): a checkout of its repository is staged instead.
type NoWriteAPIError struct{ Registry, Method string }

func (e *NoWriteAPIError) Error() string {
	return fmt.Sprintf("%s has no write API (it takes new versions as %s)", e.Registry, cmp.Or(e.Method, "pull requests"))
}

// NoCredentialsError is an upload that carries no credentials at all.
type NoCredentialsError struct{ Registry string }

func (e *NoCredentialsError) Error() string {
	return fmt.Sprintf("no token for %s, so the registry would refuse the upload; nothing was sent", e.Registry)
}

// UploadError is the PUT itself failing (every check before it passed).
type UploadError struct{ Err error }

func (e *UploadError) Error() string { return e.Err.Error() }
func (e *UploadError) Unwrap() error { return e.Err }

// Run publishes req.Archive: the registry's discovery document, the gates
// it would apply (Gates), whether the version exists (the same content:
// already published; other bytes: a *ConflictError), then the upload.
// Errors before the upload are the registry's answers or the network's.
func Run(ctx context.Context, req Request) (Outcome, error) {
	c, a := req.Client, req.Archive
	out := Outcome{Registry: c.Base()}
	d, err := c.Discover(ctx)
	if err != nil {
		return out, err
	}
	if err := Gates(ctx, c, d, a); err != nil {
		return out, err
	}
	if !d.WriteAPI.Supported {
		return out, &NoWriteAPIError{Registry: c.Base(), Method: d.WriteAPI.PublishMethod}
	}
	if !req.DryRun && !req.HasCredentials {
		return out, &NoCredentialsError{Registry: c.Base()}
	}
	e := d.Endpoints()
	existing, theirs, err := Check(ctx, c, e, a)
	if err != nil {
		return out, err
	}
	out.Put = registry.Expand(e.VersionTarball, map[string]string{"name": a.Name, "version": a.Version})
	switch existing {
	case Identical:
		out.Status, out.Theirs = "already-published", theirs
		return out, nil
	case Different:
		if u, err := c.Resolve(out.Put); err == nil {
			out.Put = u.String()
		}
		return out, &ConflictError{Name: a.Name, Version: a.Version, Ours: a.Integrity.SRI, Theirs: theirs}
	}
	if req.DryRun {
		out.Status = "dry-run"
		return out, nil
	}
	up := registry.Upload{Name: a.Name, Version: a.Version, Open: a.Reader, Size: a.Size, Integrity: a.Integrity.SRI, SigningMethod: a.SigningMethod(), Body: req.Body}
	outcome, err := c.Publish(ctx, e, up)
	if err != nil {
		return out, &UploadError{err}
	}
	out.Status = map[registry.Outcome]string{registry.Published: "published", registry.AlreadyThere: "already-published"}[outcome]
	return out, nil
}
