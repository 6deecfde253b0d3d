// Package sigstoretest runs a fake Fulcio and a fake timestamp authority on
// loopback, with certificates from sigstore-go's pkg/testing/ca, and writes
// the trusted_root.json that makes their signatures verify. Tests only.
package sigstoretest

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/asn1"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/digitorus/timestamp"
	"github.com/sigstore/sigstore-go/pkg/root"
	"github.com/sigstore/sigstore-go/pkg/testing/ca"
	"github.com/sigstore/sigstore/pkg/cryptoutils"
)

// Stack is the fake Sigstore: Fulcio and TSA servers and their CA.
type Stack struct {
	Fulcio, TSA *httptest.Server
	// Expired makes Fulcio issue certificates whose validity ended an hour
	// ago, as if the signature were timestamped after the certificate expired.
	Expired bool

	rootCert, fulcioInter, tsaInter, tsaLeaf *x509.Certificate
	fulcioKey, tsaLeafKey                    *ecdsa.PrivateKey

	mu     sync.Mutex
	tokens []string // every identity token Fulcio received
}

// New starts the stack. Close it when done.
func New() (*Stack, error) {
	s := &Stack{}
	rootCert, rootKey, err := ca.GenerateRootCa()
	if err != nil {
		return nil, err
	}
	s.rootCert = rootCert
	if s.fulcioInter, s.fulcioKey, err = ca.GenerateFulcioIntermediate(rootCert, rootKey); err != nil {
		return nil, err
	}
	tsaInter, tsaInterKey, err := ca.GenerateTSAIntermediate(rootCert, rootKey)
	if err != nil {
		return nil, err
	}
	s.tsaInter = tsaInter
	if s.tsaLeafKey, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader); err != nil {
		return nil, err
	}
	if s.tsaLeaf, err = ca.GenerateTSALeafCert(time.Now().Add(-5*time.Minute), s.tsaLeafKey, tsaInter, tsaInterKey); err != nil {
		return nil, err
	}
	s.Fulcio = httptest.NewServer(http.HandlerFunc(s.signingCert))
	s.TSA = httptest.NewServer(http.HandlerFunc(s.timestamp))
	return s, nil
}

// Close stops both servers.
func (s *Stack) Close() {
	s.Fulcio.Close()
	s.TSA.Close()
}

// TSAURL is the timestamp endpoint.
func (s *Stack) TSAURL() string { return s.TSA.URL + "/api/v1/timestamp" }

// Tokens returns the identity tokens Fulcio was sent.
func (s *Stack) Tokens() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.tokens...)
}

// Token makes an (unsigned) OIDC identity token for subject from issuer;
// the fake Fulcio trusts it as it is.
func Token(subject, issuer string) string {
	enc := base64.RawURLEncoding
	claims, _ := json.Marshal(map[string]any{"iss": issuer, "sub": subject, "email": subject, "email_verified": true, "aud": "sigstore", "exp": time.Now().Add(time.Hour).Unix()})
	return enc.EncodeToString([]byte(`{"alg":"none"}`)) + "." + enc.EncodeToString(claims) + ".sig"
}

// publicKeySigner lets ca.GenerateLeafCert certify a key we only have the
// public half of: CreateCertificate needs Public(), never Sign().
type publicKeySigner struct{ pub crypto.PublicKey }

func (p publicKeySigner) Public() crypto.PublicKey { return p.pub }
func (p publicKeySigner) Sign(io.Reader, []byte, crypto.SignerOpts) ([]byte, error) {
	panic("not a signer")
}

func (s *Stack) signingCert(w http.ResponseWriter, r *http.Request) {
	var req struct {
		PublicKeyRequest struct {
			PublicKey struct {
				Content string `json:"content"`
			} `json:"publicKey"`
		} `json:"publicKeyRequest"`
	}
	if r.URL.Path == ActionsTokenPath {
		s.actionsToken(w, r)
		return
	}
	if r.URL.Path != "/api/v2/signingCert" || json.NewDecoder(r.Body).Decode(&req) != nil {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	token := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
	s.mu.Lock()
	s.tokens = append(s.tokens, token)
	s.mu.Unlock()
	parts := strings.Split(token, ".")
	var claims struct{ Iss, Email string }
	if len(parts) != 3 {
		http.Error(w, "malformed token", http.StatusUnauthorized)
		return
	}
	raw, _ := base64.RawURLEncoding.DecodeString(parts[1])
	json.Unmarshal(raw, &claims)
	pub, err := cryptoutils.UnmarshalPEMToPublicKey([]byte(req.PublicKeyRequest.PublicKey.Content))
	if err != nil {
		http.Error(w, "bad public key", http.StatusBadRequest)
		return
	}
	start := time.Now().Add(-time.Minute)
	s.mu.Lock()
	if s.Expired {
		start = time.Now().Add(-2 * time.Hour)
	}
	s.mu.Unlock()
	leaf, err := ca.GenerateLeafCert(claims.Email, claims.Iss, start, publicKeySigner{pub}, s.fulcioInter, s.fulcioKey)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	chain := []string{pemOf(leaf), pemOf(s.fulcioInter), pemOf(s.rootCert)}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"signedCertificateEmbeddedSct": map[string]any{"chain": map[string]any{"certificates": chain}}})
}

// ActionsTokenPath serves a stand-in for GitHub Actions' OIDC token
// endpoint on the Fulcio server: with "Authorization: Bearer
// ActionsRuntimeToken" (the scheme in any case, as RFC 7235 says) and
// audience=sigstore it answers {"value": token}.
const ActionsTokenPath = "/github-actions/token"

// ActionsRuntimeToken is the request token the stand-in accepts.
const ActionsRuntimeToken = "actions-runtime-token"

// ActionsSubject is the identity the stand-in's tokens name.
const ActionsSubject = "https://github.com/acme/pack/.github/workflows/release.yml@refs/heads/main"

// ActionsIssuer is the stand-in's issuer, GitHub's.
const ActionsIssuer = "https://token.actions.githubusercontent.com"

func (s *Stack) actionsToken(w http.ResponseWriter, r *http.Request) {
	scheme, tok, _ := strings.Cut(r.Header.Get("Authorization"), " ")
	if !strings.EqualFold(scheme, "bearer") || tok != ActionsRuntimeToken || r.URL.Query().Get("audience") != "sigstore" {
		http.Error(w, "unauthorized", http.StatusUnauthorized)
		return
	}
	json.NewEncoder(w).Encode(map[string]string{"value": Token(ActionsSubject, ActionsIssuer)})
}

func pemOf(c *x509.Certificate) string {
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: c.Raw}))
}

func (s *Stack) timestamp(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	req, err := timestamp.ParseRequest(body)
	if err != nil {
		http.Error(w, "bad timestamp request", http.StatusBadRequest)
		return
	}
	ts := timestamp.Timestamp{HashAlgorithm: req.HashAlgorithm, HashedMessage: req.HashedMessage, Time: time.Now(),
		Policy: asn1.ObjectIdentifier{1, 3, 6, 1, 4, 1, 57264, 2}, ExtraExtensions: req.Extensions, Nonce: req.Nonce}
	resp, err := ts.CreateResponseWithOpts(s.tsaLeaf, s.tsaLeafKey, crypto.SHA256)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/timestamp-reply")
	w.Write(resp)
}

// WriteTrustedRoot writes a trusted_root.json trusting this stack's Fulcio
// and TSA.
func (s *Stack) WriteTrustedRoot(path string) error {
	start, end := time.Now().Add(-time.Hour), time.Now().Add(time.Hour)
	tr, err := root.NewTrustedRoot(root.TrustedRootMediaType01,
		[]root.CertificateAuthority{&root.FulcioCertificateAuthority{Root: s.rootCert, Intermediates: []*x509.Certificate{s.fulcioInter},
			ValidityPeriodStart: start, ValidityPeriodEnd: end, URI: s.Fulcio.URL}},
		nil,
		[]root.TimestampingAuthority{&root.SigstoreTimestampingAuthority{Root: s.rootCert, Intermediates: []*x509.Certificate{s.tsaInter}, Leaf: s.tsaLeaf,
			ValidityPeriodStart: start, ValidityPeriodEnd: end, URI: s.TSAURL()}},
		nil)
	if err != nil {
		return err
	}
	out, err := tr.MarshalJSON()
	if err != nil {
		return err
	}
	return os.WriteFile(path, out, 0o644)
}
