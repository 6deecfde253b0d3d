// Package sigstore signs and verifies pack manifests with Sigstore bundles:
// keyless (an OIDC identity certified by Fulcio, the signature timestamped by
// a TSA and/or logged in Rekor) or with a key. It is the only importer of
// sigstore-go.
package sigstore

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"net/http"
	"time"

	protocommon "github.com/sigstore/protobuf-specs/gen/pb-go/common/v1"
	"github.com/sigstore/sigstore-go/pkg/root"
	"github.com/sigstore/sigstore-go/pkg/sign"
	"github.com/sigstore/sigstore/pkg/cryptoutils"
	"github.com/sigstore/sigstore/pkg/signature"
	wopsign "github.com/wop-cli/wop/internal/sign"
	"github.com/wop-cli/wop/internal/sigstorehelper"
	"google.golang.org/protobuf/encoding/protojson"
)

// IDToken is an OIDC identity token; it prints as [redacted].
type IDToken = sigstorehelper.IDToken

// Services are the Sigstore endpoints a signature uses. An empty URL leaves
// that service out (at least one of Rekor and TSA is needed for keyless).
type Services struct {
	FulcioURL, RekorURL, TSAURL string
	HTTP                        *http.Client
}

// SignKeyless signs data with an ephemeral key certified by Fulcio for the
// token's identity and returns the bundle as JSON.
func SignKeyless(ctx context.Context, data []byte, token IDToken, s Services) ([]byte, error) {
	if token == "" {
		return nil, errors.New("keyless signing needs an OIDC identity token (--identity-token, SIGSTORE_ID_TOKEN, or GitHub Actions' id-token permission)")
	}
	if s.RekorURL == "" && s.TSAURL == "" {
		return nil, errors.New("keyless signing needs a transparency log or a timestamp authority to prove when the short-lived certificate was used")
	}
	kp, err := sign.NewEphemeralKeypair(nil)
	if err != nil {
		return nil, err
	}
	opts := bundleOptions(ctx, s)
	opts.CertificateProvider = sign.NewFulcio(&sign.FulcioOptions{BaseURL: s.FulcioURL, Timeout: 30 * time.Second, Retries: 1, Transport: transport(s)})
	opts.CertificateProviderOptions = &sign.CertificateProviderOptions{IDToken: string(token)}
	b, err := sign.Bundle(&sign.PlainData{Data: data}, kp, opts)
	if err != nil {
		return nil, fmt.Errorf("sigstore: %w", err)
	}
	return protojson.Marshal(b)
}

// SignWithKey signs data with a PEM private key (ECDSA P-256, or Ed25519,
// used as Ed25519ph since bundles over artifacts need a prehash).
func SignWithKey(ctx context.Context, data, keyPEM []byte, s Services) ([]byte, error) {
	kp, err := newKeypair(keyPEM)
	if err != nil {
		return nil, err
	}
	b, err := sign.Bundle(&sign.PlainData{Data: data}, kp, bundleOptions(ctx, s))
	if err != nil {
		return nil, fmt.Errorf("sigstore: %w", err)
	}
	return protojson.Marshal(b)
}

func transport(s Services) http.RoundTripper {
	if s.HTTP != nil && s.HTTP.Transport != nil {
		return s.HTTP.Transport
	}
	return http.DefaultTransport
}

func bundleOptions(ctx context.Context, s Services) sign.BundleOptions {
	opts := sign.BundleOptions{Context: ctx}
	if s.TSAURL != "" {
		opts.TimestampAuthorities = append(opts.TimestampAuthorities, sign.NewTimestampAuthority(&sign.TimestampAuthorityOptions{URL: s.TSAURL, Timeout: 30 * time.Second, Retries: 1, Transport: transport(s)}))
	}
	if s.RekorURL != "" {
		opts.TransparencyLogs = append(opts.TransparencyLogs, sign.NewRekor(&sign.RekorOptions{BaseURL: s.RekorURL, Timeout: 90 * time.Second, Retries: 1}))
	}
	return opts
}

// keypair is a sign.Keypair over an existing private key (sigstore-go has
// no constructor for one).
type keypair struct {
	priv crypto.Signer
	alg  signature.AlgorithmDetails
	hint []byte
}

var _ sign.Keypair = (*keypair)(nil)

func newKeypair(keyPEM []byte) (*keypair, error) {
	block, _ := pem.Decode(keyPEM)
	if block == nil {
		return nil, errors.New("not a PEM private key")
	}
	var key any
	var err error
	switch block.Type {
	case "PRIVATE KEY":
		key, err = x509.ParsePKCS8PrivateKey(block.Bytes)
	case "EC PRIVATE KEY":
		key, err = x509.ParseECPrivateKey(block.Bytes)
	default:
		return nil, fmt.Errorf("PEM block %q: want an unencrypted PKCS#8 or EC private key", block.Type)
	}
	if err != nil {
		return nil, err
	}
	var details protocommon.PublicKeyDetails
	switch k := key.(type) {
	case *ecdsa.PrivateKey:
		if k.Curve != elliptic.P256() {
			return nil, errors.New("ECDSA keys must use P-256")
		}
		details = protocommon.PublicKeyDetails_PKIX_ECDSA_P256_SHA_256
	case ed25519.PrivateKey:
		details = protocommon.PublicKeyDetails_PKIX_ED25519_PH
	default:
		return nil, fmt.Errorf("the key is %s: Sigstore bundles take ECDSA P-256 or Ed25519 keys", wopsign.Algorithm(key))
	}
	alg, err := signature.GetAlgorithmDetails(details)
	if err != nil {
		return nil, err
	}
	signer := key.(crypto.Signer)
	der, err := x509.MarshalPKIXPublicKey(signer.Public())
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(der)
	return &keypair{priv: signer, alg: alg, hint: []byte(base64.StdEncoding.EncodeToString(sum[:]))}, nil
}

func (k *keypair) GetHashAlgorithm() protocommon.HashAlgorithm { return k.alg.GetProtoHashType() }
func (k *keypair) GetSigningAlgorithm() protocommon.PublicKeyDetails {
	return k.alg.GetSignatureAlgorithm()
}
func (k *keypair) GetHint() []byte                { return k.hint }
func (k *keypair) GetPublicKey() crypto.PublicKey { return k.priv.Public() }

func (k *keypair) GetKeyAlgorithm() string {
	if k.alg.GetKeyType() == signature.ED25519 {
		return "ED25519"
	}
	return "ECDSA"
}

func (k *keypair) GetPublicKeyPem() (string, error) {
	b, err := cryptoutils.MarshalPublicKeyToPEM(k.priv.Public())
	return string(b), err
}

// SignData hashes data as the algorithm says and signs the digest (for
// Ed25519ph the SHA-512 prehash).
func (k *keypair) SignData(_ context.Context, data []byte) ([]byte, []byte, error) {
	hf := k.alg.GetHashType()
	h := hf.New()
	h.Write(data)
	digest := h.Sum(nil)
	var opts crypto.SignerOpts = hf
	sig, err := k.priv.Sign(nil, digest, opts)
	return sig, digest, err
}

// loadTrustedRoot reads a trusted_root.json.
func loadTrustedRoot(path string) (*root.TrustedRoot, error) {
	tr, err := root.NewTrustedRootFromPath(path)
	if err != nil {
		return nil, fmt.Errorf("trusted root %s: %w", path, err)
	}
	return tr, nil
}

// ServicesFromSigningConfig reads a Sigstore signing config (the
// signing_config.json a Sigstore deployment publishes) and picks the current
// Fulcio, Rekor and timestamp authority it lists.
func ServicesFromSigningConfig(path string) (Services, error) {
	sc, err := root.NewSigningConfigFromPath(path)
	if err != nil {
		return Services{}, fmt.Errorf("signing config %s: %w", path, err)
	}
	now := time.Now()
	var s Services
	if svc, err := root.SelectService(sc.FulcioCertificateAuthorityURLs(), sign.FulcioAPIVersions, now); err == nil {
		s.FulcioURL = svc.URL
	}
	if svc, err := root.SelectService(sc.RekorLogURLs(), sign.RekorAPIVersions, now); err == nil {
		s.RekorURL = svc.URL
	}
	if svc, err := root.SelectService(sc.TimestampAuthorityURLs(), sign.TimestampAuthorityAPIVersions, now); err == nil {
		s.TSAURL = svc.URL
	}
	return s, nil
}
