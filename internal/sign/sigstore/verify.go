package sigstore

import (
	"bytes"
	"crypto"
	"crypto/ed25519"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/sigstore/sigstore-go/pkg/bundle"
	"github.com/sigstore/sigstore-go/pkg/fulcio/certificate"
	"github.com/sigstore/sigstore-go/pkg/root"
	"github.com/sigstore/sigstore-go/pkg/verify"
	"github.com/sigstore/sigstore/pkg/cryptoutils"
	"github.com/sigstore/sigstore/pkg/signature"
	"github.com/sigstore/sigstore/pkg/signature/options"
)

// Identity is who a keyless bundle must have been signed by: a subject
// (email or URI SAN) and the OIDC issuer, each exact or by regexp.
type Identity struct {
	Subject, SubjectRegexp string
	Issuer, IssuerRegexp   string
}

func (id Identity) String() string {
	s, i := id.Subject, id.Issuer
	if s == "" {
		s = "~" + id.SubjectRegexp
	}
	if i == "" {
		i = "~" + id.IssuerRegexp
	}
	return fmt.Sprintf("%s (issuer %s)", s, i)
}

// VerifyOptions say what a bundle is checked against.
type VerifyOptions struct {
	TrustedRoot string // trusted_root.json path; "" fetches the public-good root through TUF (online, cached)
	Identity    Identity
	PublicKey   []byte // PEM: verify a key-based bundle instead of a keyless one
	// InsecureIgnoreTlog accepts a keyless bundle with no transparency-log
	// entry, on a signed timestamp alone (cosign's --insecure-ignore-tlog).
	InsecureIgnoreTlog bool
}

// Verified describes a bundle that verified.
type Verified struct {
	Subject, Issuer string // keyless
	KeyBased        bool

	notBefore, notAfter time.Time // the certificate's validity, for messages
}

// Verify checks a bundle (JSON) over data.
func Verify(bundleJSON, data []byte, o VerifyOptions) (*Verified, error) {
	b := &bundle.Bundle{}
	if err := b.UnmarshalJSON(bundleJSON); err != nil {
		return nil, fmt.Errorf("not a Sigstore bundle: %w", err)
	}
	if o.PublicKey != nil {
		return verifyWithKey(b, data, o)
	}
	if o.Identity.Subject == "" && o.Identity.SubjectRegexp == "" || o.Identity.Issuer == "" && o.Identity.IssuerRegexp == "" {
		return nil, errors.New("keyless verification needs the signer's identity and issuer: --certificate-identity (or -regexp) and --certificate-oidc-issuer")
	}
	trusted, err := trustedRoot(o.TrustedRoot)
	if err != nil {
		return nil, err
	}
	signer, err := signerIdentity(b)
	if err != nil {
		return nil, err
	}
	opts := []verify.VerifierOption{verify.WithObserverTimestamps(1)}
	entries, _ := b.TlogEntries()
	switch {
	case len(entries) > 0:
		opts = append(opts, verify.WithTransparencyLog(1))
	case !o.InsecureIgnoreTlog:
		return nil, errors.New("the keyless bundle has no transparency-log (Rekor) entry, so nobody can audit that this certificate was used; " +
			"sign with a Rekor log, or accept its signed timestamp alone with --insecure-ignore-tlog (as cosign does)")
	}
	if len(trusted.CTLogs()) > 0 {
		opts = append(opts, verify.WithSignedCertificateTimestamps(1))
	}
	v, err := verify.NewVerifier(trusted, opts...)
	if err != nil {
		return nil, err
	}
	id, err := verify.NewShortCertificateIdentity(o.Identity.Issuer, o.Identity.IssuerRegexp, o.Identity.Subject, o.Identity.SubjectRegexp)
	if err != nil {
		return nil, fmt.Errorf("identity: %w", err)
	}
	_, err = v.Verify(b, verify.NewPolicy(verify.WithArtifact(bytes.NewReader(data)), verify.WithCertificateIdentity(id)))
	if err != nil {
		return nil, explain(err, o.Identity, signer)
	}
	return signer, nil
}

func trustedRoot(path string) (*root.TrustedRoot, error) {
	if path != "" {
		return loadTrustedRoot(path)
	}
	tr, err := root.FetchTrustedRoot()
	if err != nil {
		return nil, fmt.Errorf("fetch the public-good Sigstore trusted root (pass --trusted-root FILE to verify offline): %w", err)
	}
	return tr, nil
}

// signerIdentity reads who the bundle's certificate names.
func signerIdentity(b *bundle.Bundle) (*Verified, error) {
	vc, err := b.VerificationContent()
	if err != nil {
		return nil, err
	}
	cert := vc.Certificate()
	if cert == nil {
		return nil, errors.New("the bundle holds a public key, not a certificate: verify it with --key")
	}
	summary, err := certificate.SummarizeCertificate(cert)
	if err != nil {
		return nil, err
	}
	return &Verified{Subject: summary.SubjectAlternativeName, Issuer: summary.Issuer, notBefore: cert.NotBefore, notAfter: cert.NotAfter}, nil
}

// explain turns sigstore-go's verification errors into what a person can
// act on.
func explain(err error, want Identity, got *Verified) error {
	msg := err.Error()
	switch {
	case strings.Contains(msg, "expired") || strings.Contains(msg, "not yet valid") || strings.Contains(msg, "validity") || strings.Contains(msg, "leaf certificate"):
		return fmt.Errorf("the signing certificate (valid %s to %s) was not valid at the signature's timestamp, or does not chain to the trusted root: %v",
			got.notBefore.UTC().Format(time.RFC3339), got.notAfter.UTC().Format(time.RFC3339), err)
	case strings.Contains(msg, "timestamp") || strings.Contains(msg, "x509") || strings.Contains(msg, "chain"):
		return fmt.Errorf("the certificate or timestamp does not chain to the trusted root: an unknown certificate or timestamp authority (check --trusted-root): %v", err)
	case strings.Contains(msg, "identity") || strings.Contains(msg, "SAN") || strings.Contains(msg, "issuer"):
		return fmt.Errorf("signed by %s (issuer %s), but %s was required", got.Subject, got.Issuer, want)
	case strings.Contains(msg, "artifact") || strings.Contains(msg, "digest") || strings.Contains(msg, "signature"):
		return fmt.Errorf("the bundle's signature is over other bytes: pack.json changed after signing, or the bundle belongs to another artifact (%v)", err)
	}
	return err
}

func verifyWithKey(b *bundle.Bundle, data []byte, o VerifyOptions) (*Verified, error) {
	pub, err := cryptoutils.UnmarshalPEMToPublicKey(o.PublicKey)
	if err != nil {
		return nil, fmt.Errorf("public key: %w", err)
	}
	var verifier signature.Verifier
	if _, ok := pub.(ed25519.PublicKey); ok {
		verifier, err = signature.LoadVerifierWithOpts(pub, options.WithED25519ph())
	} else {
		verifier, err = signature.LoadVerifier(pub, crypto.SHA256)
	}
	if err != nil {
		return nil, err
	}
	material := root.NewTrustedPublicKeyMaterial(func(string) (root.TimeConstrainedVerifier, error) {
		return root.NewExpiringKey(verifier, time.Time{}, time.Time{}), nil
	})
	var trusted root.TrustedMaterial = material
	opts := []verify.VerifierOption{verify.WithNoObserverTimestamps()}
	if o.TrustedRoot != "" {
		tr, err := loadTrustedRoot(o.TrustedRoot)
		if err != nil {
			return nil, err
		}
		trusted = root.TrustedMaterialCollection{material, tr}
		opts = []verify.VerifierOption{verify.WithObserverTimestamps(1)}
	}
	v, err := verify.NewVerifier(trusted, opts...)
	if err != nil {
		return nil, err
	}
	if _, err := v.Verify(b, verify.NewPolicy(verify.WithArtifact(bytes.NewReader(data)), verify.WithKey())); err != nil {
		return nil, fmt.Errorf("the bundle does not verify with this key, or is over other bytes (pack.json changed after signing): %v", err)
	}
	return &Verified{KeyBased: true}, nil
}
