package registry

import (
	"context"
	"io"
	"net/http"
)

// Token is a registry bearer token. It prints as [redacted] in every verb,
// so no log line or error can leak it.
type Token string

func (Token) String() string   { return "[redacted]" }
func (Token) GoString() string { return "[redacted]" }

// Upload is one archive to PUT.
type Upload struct {
	Name, Version string
	// Open returns the .tgz's bytes from the start, once per attempt: the
	// file the caller opened and checked, never its path again.
	Open          func() io.Reader
	Size          int64
	Integrity     string // sha256-<base64> of the file
	SigningMethod string // manual, sigstore or none
	// Body wraps the file reader of each attempt, e.g. with a progress bar.
	Body func(r io.Reader, size int64) io.Reader
}

// Outcome is what a successful PUT did.
type Outcome int

// The successful answers.
const (
	Published    Outcome = iota // 201: a new version
	AlreadyThere                // 200: these exact bytes were already published
)

// Publish PUTs the archive to the tarball endpoint. Only the registry's
// own 201 or 200 for this request counts as success (FORMAT.md §5).
func (c *Client) Publish(ctx context.Context, e Endpoints, u Upload) (Outcome, error) {
	open := func() (io.ReadCloser, error) {
		r := u.Open()
		if u.Body != nil {
			r = u.Body(r, u.Size)
		}
		return io.NopCloser(r), nil
	}
	resp, err := c.Put(ctx, Expand(e.VersionTarball, map[string]string{"name": u.Name, "version": u.Version}), PutBody{Open: open, Size: u.Size, Header: uploadHeader(e, u.Integrity, u.SigningMethod)})
	if err != nil {
		return 0, err
	}
	if resp.StatusCode == http.StatusOK { // Put answers only 200 and 201
		return AlreadyThere, nil
	}
	return Published, nil
}

// uploadHeader is the headers of a PUT of an archive (FORMAT.md §5), with
// the v2 name of the integrity header when the v2 endpoints are used.
func uploadHeader(e Endpoints, integrity, signingMethod string) http.Header {
	integrityHeader := "X-Pack-Sha256"
	if e.V2 {
		integrityHeader = "OpenWOP-Pack-Sha256"
	}
	h := http.Header{}
	h.Set("Content-Type", "application/gzip")
	h.Set(integrityHeader, integrity)
	h.Set("X-Pack-Signing-Method", signingMethod)
	return h
}
