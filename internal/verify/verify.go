// Package verify checks a built pack archive: its structure, its integrity
// against what a registry serves, its Ed25519 signature over the exact
// in-archive pack.json bytes, and whether a source tree rebuilds it.
package verify

import (
	"bytes"
	"cmp"
	"crypto/ed25519"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/wop-cli/wop/internal/build"
	"github.com/wop-cli/wop/internal/canon"
	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/sign"
	"github.com/wop-cli/wop/internal/tarball"
)

// Options say what to check the archive against. Checks whose input is
// missing are skipped, except the signature, which always needs a key.
type Options struct {
	Integrity       string                                                  // expected sha256-<base64> or sha256:<hex>
	VersionManifest []byte                                                  // a registry's <version>.json for this version
	Key             ed25519.PublicKey                                       // verify with this key
	KeyName         string                                                  // how the user named Key (the --key argument), for messages
	ResolveKey      func(keyID, packName string) (ed25519.PublicKey, error) // or look the block's key up
	Source          *pack.Pack                                              // rebuild this source and compare
	Want            string                                                  // "name@version" the archive must hold, when fetched by that name
	Limits          tarball.Limits
	// Sigstore verifies a Sigstore bundle over the manifest bytes and says
	// who signed; nil when no Sigstore verification was asked for.
	Sigstore func(bundle, manifest []byte) (signer string, err error)
}

// Check is the outcome of one verification step.
type Check struct {
	Name    string // "archive", "integrity", "signature", "version-manifest", "source"
	OK      bool
	Message string
}

// Report is the outcome of verifying one archive.
type Report struct {
	Name, Version string
	KeyID         string // the Ed25519 key id the signing block names
	SignedBy      string // who the verified signature is from, for people
	Integrity     build.Integrity
	Checks        []Check
}

// OK reports whether every check passed.
func (r *Report) OK() bool {
	for _, c := range r.Checks {
		if !c.OK {
			return false
		}
	}
	return true
}

func (r *Report) add(name string, err error, okMsg string) {
	if err != nil {
		r.Checks = append(r.Checks, Check{Name: name, Message: err.Error()})
		return
	}
	r.Checks = append(r.Checks, Check{Name: name, OK: true, Message: okMsg})
}

// Archive verifies the .tgz in. The error is for archives that cannot be
// read at all; everything else is a failed Check.
//
// The archive is read once: hashed as it is read, and only the entries
// keep names are held, so verifying a 50 MB archive holds neither the
// archive nor its prompts (the caller bounds in, as it bounds any input).
// A rebuild (opt.Source) needs only digests of the rest: the uncompressed
// tar's, and each entry's, to name those that differ.
func Archive(in io.Reader, opt Options) (*Report, error) {
	h := sha256.New()
	var pub *published
	var a *tarball.Archive
	var err error
	if opt.Source != nil {
		pub = &published{tar: sha256.New()}
		a, err = tarball.ScanTee(io.TeeReader(in, h), opt.Limits, pub.keep, pub.tar)
	} else {
		a, err = tarball.Scan(io.TeeReader(in, h), opt.Limits, keep)
	}
	if err != nil {
		return nil, err
	}
	// Scan reads to the end of the gzip stream and refuses anything after
	// it; whatever a reader still holds is hashed all the same.
	if _, err := io.Copy(h, in); err != nil {
		return nil, err
	}
	r := &Report{Integrity: build.IntegrityOf(h.Sum(nil))}
	r.add("archive", structure(a), "well-formed: regular files only, safe names, no duplicates")
	entry, ok := a.Find(pack.ManifestName)
	if !ok {
		return nil, errors.New("no pack.json in the archive")
	}
	doc, err := canon.Parse(entry.Data)
	if err != nil {
		r.add("signature", fmt.Errorf("pack.json: %w", err), "")
		return r, nil
	}
	r.Name, r.Version = doc.Root.Get("name").String(), doc.Root.Get("version").String()
	if opt.Want != "" {
		r.add("identity", checkWant(r.Name+"@"+r.Version, opt.Want), "the archive is "+opt.Want)
	}
	if opt.Integrity != "" {
		r.add("integrity", checkIntegrity(r.Integrity, opt.Integrity), "matches "+opt.Integrity)
	}
	if opt.VersionManifest != nil {
		r.add("version-manifest", checkServed(opt.VersionManifest, entry.Data, r.Integrity), "the served manifest matches the signed one")
	}
	r.add("signature", r.checkSignature(a, doc, entry.Data, opt), "")
	if opt.Source != nil {
		r.add("source", rebuild(opt.Source, a, doc, pub), "the source rebuilds to an identical tar")
	}
	return r, nil
}

// keep says which entries' contents verify holds: only the manifest, the
// signature material (keys/, and any JSON a signing block may name as a
// Sigstore bundle) and small files, so a 50 MB pack of prompts is never
// held whole.
func keep(e tarball.Entry) bool {
	return e.Size <= 64<<10 || strings.HasSuffix(e.Name, ".json") || strings.HasPrefix(e.Name, "keys/")
}

func structure(a *tarball.Archive) error {
	var msgs []string
	for _, is := range a.Refused() {
		msgs = append(msgs, fmt.Sprintf("%s: %s", is.Entry, is.Message))
	}
	msgs = append(msgs, CollidingNames(a)...)
	if len(msgs) > 0 {
		return fmt.Errorf("archive refused: %s", strings.Join(msgs, "; "))
	}
	return nil
}

func checkWant(got, want string) error {
	if got != want {
		return fmt.Errorf("the registry served %s when asked for %s", got, want)
	}
	return nil
}

func checkIntegrity(got build.Integrity, want string) error {
	if want == got.SRI || want == got.Hex {
		return nil
	}
	return fmt.Errorf("integrity is %s, expected %s: the archive is not the one published", got.SRI, want)
}

// registryFields are what a registry adds to a served version manifest;
// versionDeprecated is v2's name for the deprecation marker.
var registryFields = []string{"integrity", "publishedAt", "tarballUrl", "signatureUrl", "manifestUrl", "sbomUrl",
	"deprecated", "versionDeprecated", "yanked", "yankedReason", "deprecationReason", "supersededBy", "advisoryUrl"}

// checkServed compares a served <version>.json with the signed pack.json:
// without the registry's own fields it must canonicalise to the same bytes.
func checkServed(served, signed []byte, got build.Integrity) error {
	doc, err := parseServed(served)
	if err != nil {
		return err
	}
	if want := doc.Root.Get("integrity").String(); want != "" && want != got.SRI {
		return fmt.Errorf("version manifest says integrity %s, the archive is %s", want, got.SRI)
	}
	if err := checkServedShape(doc.Root); err != nil {
		return err
	}
	for _, f := range registryFields {
		doc.Root.Delete(f)
	}
	canonical, err := canon.Marshal(doc.Root)
	if err != nil {
		return err
	}
	if bytes.Equal(canonical, signed) {
		return nil
	}
	signedDoc, _ := canon.Parse(signed)
	return fmt.Errorf("the served manifest differs from the signed pack.json in %s: it was edited after signing", strings.Join(diffFields(doc.Root, signedDoc.Root), ", "))
}

// parseServed parses a served version manifest, which must be an object.
func parseServed(served []byte) (*jsonpos.Doc, error) {
	doc, err := canon.Parse(served)
	if err != nil {
		return nil, fmt.Errorf("version manifest: %w", err)
	}
	if doc.Root.Kind != jsonpos.Object {
		return nil, errors.New("version manifest: not a JSON object (a registry serves a version's manifest as one)")
	}
	return doc, nil
}

// diffFields names the top-level members whose canonical values differ.
func diffFields(a, b *jsonpos.Value) []string {
	names := map[string]bool{}
	for _, m := range a.Members {
		names[m.Name] = true
	}
	for _, m := range b.Members {
		names[m.Name] = true
	}
	var out []string
	for n := range names {
		x, y := a.Get(n), b.Get(n)
		if x == nil || y == nil {
			out = append(out, n)
			continue
		}
		cx, _ := canon.Marshal(x)
		cy, _ := canon.Marshal(y)
		if !bytes.Equal(cx, cy) {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

// checkSignature verifies the Ed25519 signature the signing block names,
// over the pack.json entry's bytes exactly as they are.
func (r *Report) checkSignature(a *tarball.Archive, doc *jsonpos.Doc, manifest []byte, opt Options) error {
	block := doc.Root.Get("signing")
	if block == nil {
		return errors.New("unsigned: pack.json has no signing block")
	}
	var sigRef string
	switch {
	case block.Get("method").String() == "manual":
		r.KeyID, sigRef = block.Get("publicKeyRef").String(), block.Get("signatureRef").String()
	case block.Get("scheme").String() == "ed25519-canonical-json":
		r.KeyID, sigRef = block.Get("keyId").String(), sign.SignatureEntry
	case block.Get("method").String() == "ed25519" || block.Get("publicKeyUrl") != nil:
		return errors.New(`legacy signing block (method "ed25519" with keyId/publicKeyUrl): such archives were signed over the tarball, which no host verifies; rebuild and sign with wop`)
	case block.Get("method").String() == "sigstore":
		return r.checkSigstore(a, doc, block, manifest, opt)
	default:
		return errors.New("signing block has neither method \"manual\" nor the v2 scheme")
	}
	if canonical, err := canon.Marshal(doc.Root); err != nil || !bytes.Equal(canonical, manifest) {
		return errors.New("pack.json in the archive is not canonical JSON, so no host can reproduce the signed bytes")
	}
	sig, ok := a.Find(sigRef)
	if !ok {
		return fmt.Errorf("signature entry %q named by the signing block is missing", sigRef)
	}
	key := opt.Key
	if key == nil {
		if opt.ResolveKey == nil {
			return fmt.Errorf("signed with key %q: pass --key PEM or --registry URL to verify it", r.KeyID)
		}
		var err error
		if key, err = opt.ResolveKey(r.KeyID, r.Name); err != nil {
			return err
		}
	}
	if err := sign.Verify(key, manifest, sig.Data); err != nil {
		if errors.Is(err, sign.ErrBadSignature) {
			return badSignature("", "pack.json", r.KeyID, opt)
		}
		return err
	}
	r.SignedBy = fmt.Sprintf("Ed25519 key %q", r.KeyID)
	return nil
}

// ServedManifest verifies a registry's <version>.json without its archive:
// without the registry's own fields it must canonicalise to bytes that the
// detached signature sig verifies.
func ServedManifest(served, sig []byte, opt Options) (*Report, error) {
	doc, err := parseServed(served)
	if err != nil {
		return nil, err
	}
	r := &Report{Name: doc.Root.Get("name").String(), Version: doc.Root.Get("version").String()}
	if err := checkServedShape(doc.Root); err != nil {
		r.add("version-manifest", err, "")
	}
	for _, f := range registryFields {
		doc.Root.Delete(f)
	}
	signed, err := canon.Marshal(doc.Root)
	if err != nil {
		return nil, err
	}
	block := doc.Root.Get("signing")
	r.KeyID = block.Get("publicKeyRef").String()
	if r.KeyID == "" {
		r.KeyID = block.Get("keyId").String()
	}
	key := opt.Key
	if key == nil && opt.ResolveKey != nil && r.KeyID != "" {
		if key, err = opt.ResolveKey(r.KeyID, r.Name); err != nil {
			r.add("signature", err, "")
			return r, nil
		}
	}
	if key == nil {
		r.add("signature", fmt.Errorf("signed with key %q: pass --key PEM or --registry URL to verify it", r.KeyID), "")
		return r, nil
	}
	err = sign.Verify(key, signed, sig)
	if errors.Is(err, sign.ErrBadSignature) {
		err = badSignature(" over the served manifest", "the manifest", r.KeyID, opt)
	}
	if err == nil {
		r.SignedBy = fmt.Sprintf("Ed25519 key %q", r.KeyID)
	}
	r.add("signature", err, "")
	return r, nil
}

// badSignature says why an Ed25519 signature over what (" over the served
// manifest", or "" for pack.json) failed without claiming more than
// Ed25519 can tell: a wrong key and edited bytes fail alike. A key the user
// chose may be the wrong one, so both causes are named; the key the
// registry lists under the id the manifest names is the right one unless
// the manifest lies about its id, so an edit comes first.
func badSignature(over, doc, keyID string, opt Options) error {
	if opt.Key == nil {
		return fmt.Errorf("signature does not verify%s with the registry's key %q: %s was edited after signing, or another key signed it under that id", over, keyID, doc)
	}
	return fmt.Errorf("signature does not verify%s with %s (%s names key %q): a wrong key, or %s was edited after signing",
		over, cmp.Or(opt.KeyName, "the given key"), doc, keyID, doc)
}

func (r *Report) checkSigstore(a *tarball.Archive, doc *jsonpos.Doc, block *jsonpos.Value, manifest []byte, opt Options) error {
	if opt.Sigstore == nil {
		return errors.New("signed with Sigstore: pass --certificate-identity and --certificate-oidc-issuer (keyless) or --key (key-based) to verify it")
	}
	ref := block.Get("signatureRef").String()
	bundle, ok := a.Find(ref)
	if !ok {
		return fmt.Errorf("the Sigstore bundle %q named by the signing block is missing", ref)
	}
	if canonical, err := canon.Marshal(doc.Root); err != nil || !bytes.Equal(canonical, manifest) {
		return errors.New("pack.json in the archive is not canonical JSON, so no host can reproduce the signed bytes")
	}
	signer, err := opt.Sigstore(bundle.Data, manifest)
	if err != nil {
		return err
	}
	r.SignedBy = signer
	return nil
}
