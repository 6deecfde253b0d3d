package sign

import (
	"crypto/ed25519"
	"errors"
	"fmt"

	"github.com/wop-cli/wop/internal/canon"
	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/spec"
)

// Spec is the registry tree whose signing block a build writes.
type Spec string

// The signing block shapes (FORMAT.md §3), and SpecAuto, which picks one
// per manifest from its engine range as the registry does (For).
const (
	SpecV1   Spec = "v1" // {"method":"manual","publicKeyRef":ID,"signatureRef":"keys/pack.json.sig"}
	SpecV2   Spec = "v2" // {"keyId":ID,"scheme":"ed25519-canonical-json"}
	SpecAuto Spec = "auto"
)

// For returns the shape to write for root: SpecAuto (or "") resolves to
// the tree root's engine range publishes to; v1 and v2 are kept.
func (s Spec) For(root *jsonpos.Value) Spec {
	if s == SpecAuto || s == "" {
		return Spec(spec.TreeOf(root))
	}
	return s
}

// SignatureEntry is where the raw 64-byte signature lives in the archive.
const SignatureEntry = pack.SignatureEntry

// SigstoreEntry is where a Sigstore bundle lives in the archive.
const SigstoreEntry = "pack.json.sigstore"

// ErrBadSignature means the signature does not verify over the bytes.
var ErrBadSignature = errors.New("signature does not verify")

// Block returns the signing block for keyID.
func Block(spec Spec, keyID string) (*jsonpos.Value, error) {
	switch spec {
	case SpecV1, "":
		return jsonpos.StringObject("method", "manual", "publicKeyRef", keyID, "signatureRef", SignatureEntry), nil
	case SpecV2:
		return jsonpos.StringObject("keyId", keyID, "scheme", "ed25519-canonical-json"), nil
	}
	return nil, fmt.Errorf("unknown signing spec %q (want v1 or v2)", spec)
}

// CheckV2 enforces what the v2 tree adds (the lint rules v2-kind-required
// and v2-engine-range say the same): kind present, and engines.openwop of
// the form ">=x[.y[.z]] <M.0.0" with M >= 3.
func CheckV2(root *jsonpos.Value) error {
	if root.Get("kind") == nil {
		return errors.New("v2 manifests must set kind (e.g. \"node\")")
	}
	r := root.Get("engines").Get("openwop").String()
	n, ok := spec.Ceiling(r)
	if !ok {
		return fmt.Errorf("v2 manifests need engines.openwop as \">=x[.y[.z]] <M.0.0\", not %q", r)
	}
	if n < 3 {
		return fmt.Errorf("engines.openwop %q: v2 hosts need an upper bound of at least 3.0.0", r)
	}
	return nil
}

// Manifest returns the bytes to put in the archive as pack.json: the
// canonical JSON of root with block set as its signing block (or with no
// signing block when block is nil). root is modified.
func Manifest(root *jsonpos.Value, block *jsonpos.Value) ([]byte, error) {
	if block == nil {
		root.Delete("signing")
	} else {
		root.Set("signing", block)
	}
	return canon.Marshal(root)
}

// Verify checks a 64-byte Ed25519 signature over manifest, the pack.json
// bytes exactly as they are in the archive.
func Verify(pub ed25519.PublicKey, manifest, sig []byte) error {
	if len(sig) != ed25519.SignatureSize {
		return fmt.Errorf("signature file is %d bytes, not a raw 64-byte Ed25519 signature%s", len(sig), hintForSize(sig))
	}
	if !ed25519.Verify(pub, manifest, sig) {
		return ErrBadSignature
	}
	return nil
}

func hintForSize(sig []byte) string {
	if len(sig) == 88 || len(sig) == 89 {
		return " (it looks like base64 text: a stale hand-made file)"
	}
	return ""
}
