// Package publish sends a built archive to a registry, after the checks a
// registry would make, so a publish fails on the laptop with the same reason
// rather than halfway through an upload. Registries without a write API get
// the archive staged into a checkout of their repository instead (package
// stage).
package publish

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/wop-cli/wop/internal/build"
	"github.com/wop-cli/wop/internal/canon"
	"github.com/wop-cli/wop/internal/invocation"
	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/registry"
	"github.com/wop-cli/wop/internal/safefile"
	"github.com/wop-cli/wop/internal/sign"
	"github.com/wop-cli/wop/internal/tarball"
	"github.com/wop-cli/wop/internal/verify"
)

// Archive is what a publish reads from the .tgz, in one streaming pass. The
// file stays open: every later step (gates, stage, upload) reads this one
// handle, never the path again, so a file swapped in under the name between
// two steps is never seen. Close it when the publish is over.
type Archive struct {
	Path          string
	ID            safefile.Identity // the file as opened
	Size          int64
	Integrity     build.Integrity
	Name, Version string
	Manifest      []byte // the pack.json entry, exactly
	Signature     []byte // keys/pack.json.sig, nil if absent
	Signing       *jsonpos.Value
	limits        tarball.Limits
	file          *safefile.File
}

// ReadArchive hashes the file and reads its manifest and signature, holding
// nothing else: memory stays flat whatever the archive's size. Refused
// structure (traversal, links, duplicates, bombs) is an error.
func ReadArchive(path string, lim tarball.Limits) (out *Archive, err error) {
	f, err := safefile.Open(path, safefile.Options{Max: 2 * lim.MaxTotal, FollowLinks: true})
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			f.Close()
		}
	}()
	r := f.Section()
	h := sha256.New()
	keep := func(e tarball.Entry) bool { return e.Name == pack.ManifestName || e.Name == pack.SignatureEntry }
	a, err := tarball.Scan(io.TeeReader(r, h), lim, keep)
	if err != nil {
		return nil, err
	}
	if _, err := io.Copy(h, r); err != nil { // bytes after the tar's end count too
		return nil, err
	}
	if refused := a.Refused(); len(refused) > 0 {
		return nil, fmt.Errorf("the archive would be refused: %s: %s", refused[0].Entry, refused[0].Message)
	}
	if colliding := verify.CollidingNames(a); len(colliding) > 0 { // verify would fail it
		return nil, fmt.Errorf("the archive would not verify: %s", colliding[0])
	}
	out = &Archive{Path: path, ID: safefile.IdentityOf(f.Info), Size: f.Info.Size(), Integrity: build.IntegrityOf(h.Sum(nil)), limits: lim, file: f}
	m, ok := a.Find(pack.ManifestName)
	if !ok {
		return nil, errors.New("no pack.json at the archive's root")
	}
	doc, err := canon.Parse(m.Data)
	if err != nil {
		return nil, fmt.Errorf("pack.json: %w", err)
	}
	out.Manifest = m.Data
	out.Name, out.Version = doc.Root.Get("name").String(), doc.Root.Get("version").String()
	out.Signing = doc.Root.Get("signing")
	if s, ok := a.Find(pack.SignatureEntry); ok {
		out.Signature = s.Data
	}
	return out, nil
}

// SigningMethod is the X-Pack-Signing-Method value for the archive.
func (a *Archive) SigningMethod() string {
	switch {
	case a.Signing == nil:
		return "none"
	case a.Signing.Get("method").String() == "sigstore":
		return "sigstore"
	}
	return "manual"
}

// KeyID is the signing key the archive names.
func (a *Archive) KeyID() string {
	if id := a.Signing.Get("publicKeyRef").String(); id != "" {
		return id
	}
	return a.Signing.Get("keyId").String()
}

// GateError is a check that stopped the publish before any byte was sent.
type GateError struct {
	Gate string // "namespace", "signature", "key", "write-api"
	Err  error
	hint string
}

func (e *GateError) Error() string { return e.Err.Error() }
func (e *GateError) Unwrap() error { return e.Err }
func (e *GateError) Hint() string  { return e.hint }

// Gates are the registry's own checks, run locally against its discovery
// document: namespace, key and signature.
func Gates(ctx context.Context, c *registry.Client, d *registry.Discovery, a *Archive) error {
	scope, _, _ := strings.Cut(a.Name, ".")
	switch {
	case scope == "local":
		return &GateError{Gate: "namespace", Err: fmt.Errorf("%s is in local.*, which is never published", a.Name), hint: "rename the pack under community.<you>.* or vendor.<org>.*"}
	case len(d.SupportedNamespaces) > 0 && !slices.Contains(d.SupportedNamespaces, scope):
		err := fmt.Errorf("%s accepts %s.* names only, not %s", c.Base(), strings.Join(d.SupportedNamespaces, ".*, "), a.Name)
		hint := ""
		if scope == "private" {
			hint = "private.* packs go to a private registry (--registry URL)"
		}
		return &GateError{Gate: "namespace", Err: err, hint: hint}
	}
	if a.Signing == nil {
		if scope == "private" {
			return nil
		}
		return &GateError{Gate: "signature", Err: fmt.Errorf("%s@%s is unsigned; registries refuse unsigned packs outside private.*", a.Name, a.Version), hint: "build it with --key KEY.pem --key-id ID"}
	}
	if a.SigningMethod() == "sigstore" {
		return &GateError{Gate: "signature", Err: errors.New("sigstore-signed archives cannot be checked by this wop build"), hint: "sign with an Ed25519 key (--key)"}
	}
	pub, err := c.Key(ctx, d, a.KeyID(), a.Name)
	if err != nil {
		hint := "sign with a key the registry lists for this namespace, or ask its operator to register yours"
		var h interface{ Hint() string }
		if errors.As(err, &h) && h.Hint() != "" { // the registry client's own next step (origins, duplicate keys)
			hint = h.Hint()
		}
		return &GateError{Gate: "key", Err: err, hint: hint}
	}
	if err := sign.Verify(pub, a.Manifest, a.Signature); err != nil {
		return &GateError{Gate: "signature", Err: fmt.Errorf("signature over pack.json does not verify with the registry's key %q: %w", a.KeyID(), err), hint: "rebuild and sign with the private half of that key"}
	}
	return nil
}

// Existing says what the registry already holds for this version.
type Existing int

// What a registry holds for a version.
const (
	Absent    Existing = iota
	Identical          // same integrity: already published
	Different          // other bytes: a conflict
)

// Check GETs the version manifest and compares integrities. Other
// integrities are not yet a conflict: the registry's archive is fetched and
// the two tar streams compared, since a rebuild by another gzip has other
// bytes but the same content. The registry's integrity is returned for
// conflict messages.
func Check(ctx context.Context, c *registry.Client, e registry.Endpoints, a *Archive) (Existing, string, error) {
	body, found, err := c.VersionManifest(ctx, e, a.Name, a.Version)
	if err != nil || !found {
		return Absent, "", err
	}
	doc, err := jsonpos.Parse(body)
	if err != nil {
		return Absent, "", fmt.Errorf("the registry's %s@%s manifest is not JSON: %w", a.Name, a.Version, err)
	}
	theirs := doc.Root.Get("integrity").String()
	if theirs == a.Integrity.SRI {
		return Identical, theirs, nil
	}
	rc, err := c.OpenTarball(ctx, e, a.Name, a.Version)
	if errors.Is(err, registry.ErrNotFound) {
		return Different, theirs, nil
	}
	if err != nil {
		return Absent, "", err
	}
	defer rc.Close()
	same, err := a.SameTar(rc)
	if err != nil {
		return Absent, "", fmt.Errorf("the registry's %s@%s archive: %w", a.Name, a.Version, err)
	}
	if same {
		return Identical, theirs, nil
	}
	return Different, theirs, nil
}

// SameTar reports whether the gzip stream r holds exactly this archive's
// tar stream. A stream that is no readable gzip holds other content.
func (a *Archive) SameTar(r io.Reader) (bool, error) {
	theirs, err := TarDigest(r, a.limits)
	if err != nil {
		return false, nil
	}
	ours, err := TarDigest(a.Reader(), a.limits)
	if err != nil {
		return false, err
	}
	return bytes.Equal(ours, theirs), nil
}

// ConflictError: the version exists at the registry with other bytes.
type ConflictError struct {
	Name, Version, Ours, Theirs string
	Invoked                     invocation.Name // the command that started wop, for Hint
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("%s@%s is already published with other bytes (registry %s, this archive %s)", e.Name, e.Version, e.Theirs, e.Ours)
}

// Is lets callers treat this like registry.ErrConflict.
func (e *ConflictError) Is(target error) bool { return target == registry.ErrConflict }

// Hint says what to do.
func (e *ConflictError) Hint() string {
	return "versions are immutable: bump the version; if this is a rebuild, '" + e.Invoked.Cmd("pack verify --source") + "' shows which entries changed"
}

// Served renders the signed manifest indented, members in its order: the
// version manifest without integrity (build.VersionManifest adds it).
func (a *Archive) Served() ([]byte, error) {
	doc, err := canon.Parse(a.Manifest)
	if err != nil {
		return nil, err
	}
	return canon.Indent(doc.Root)
}

// ReadAll reads every entry of the archive, within the limits it was read
// with.
func (a *Archive) ReadAll() (*tarball.Archive, error) {
	return tarball.Read(a.Reader(), a.limits)
}

// Reader reads the archive's bytes from the start, from the file opened by
// ReadArchive.
func (a *Archive) Reader() io.Reader { return a.file.Section() }

// Bytes returns the whole archive (at most twice the pack ceiling, checked
// when it was opened).
func (a *Archive) Bytes() ([]byte, error) { return io.ReadAll(a.Reader()) }

// Close closes the archive's file.
func (a *Archive) Close() error { return a.file.Close() }
