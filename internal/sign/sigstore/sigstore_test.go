package sigstore_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/sign/sigstore"
	"github.com/wop-cli/wop/internal/sign/sigstore/sigstoretest"
	"github.com/wop-cli/wop/internal/sigstorehelper"
)

const (
	subject = "release@acme.dev"
	issuer  = "https://accounts.acme.dev"
)

var manifest = []byte(`{"name":"community.acme.demo","signing":{"method":"sigstore","signatureRef":"pack.json.sigstore"},"version":"1.0.0"}`)

func stack(t *testing.T) (*sigstoretest.Stack, string) {
	t.Helper()
	s, err := sigstoretest.New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	trusted := filepath.Join(t.TempDir(), "trusted_root.json")
	if err := s.WriteTrustedRoot(trusted); err != nil {
		t.Fatal(err)
	}
	return s, trusted
}

// TestKeyless signs through the fake Fulcio and TSA on loopback, writes the
// bundle to disk and verifies it from there against the written root.
func TestKeyless(t *testing.T) {
	s, trusted := stack(t)
	token := sigstoretest.Token(subject, issuer)
	bundle, err := sigstore.SignKeyless(context.Background(), manifest, sigstore.IDToken(token), sigstore.Services{FulcioURL: s.Fulcio.URL, TSAURL: s.TSAURL()})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "pack.sigstore.json")
	if err := os.WriteFile(path, bundle, 0o644); err != nil {
		t.Fatal(err)
	}
	fromDisk, _ := os.ReadFile(path)
	if strings.Contains(string(fromDisk), token) {
		t.Error("the identity token is in the bundle")
	}
	// The fake stack has no Rekor: without a tlog entry, keyless verification
	// refuses the bundle unless the timestamp alone is accepted explicitly.
	strict := sigstore.VerifyOptions{TrustedRoot: trusted, Identity: sigstore.Identity{Subject: subject, Issuer: issuer}}
	if _, err := sigstore.Verify(fromDisk, manifest, strict); err == nil || !strings.Contains(err.Error(), "no transparency-log (Rekor) entry") {
		t.Errorf("bundle without a tlog entry: %v", err)
	}
	good := strict
	good.InsecureIgnoreTlog = true
	v, err := sigstore.Verify(fromDisk, manifest, good)
	if err != nil {
		t.Fatal(err)
	}
	if v.Subject != subject || v.Issuer != issuer {
		t.Errorf("verified %+v", v)
	}
	if _, err := sigstore.Verify(fromDisk, manifest, sigstore.VerifyOptions{TrustedRoot: trusted, Identity: sigstore.Identity{SubjectRegexp: `@acme\.dev$`, Issuer: issuer}, InsecureIgnoreTlog: true}); err != nil {
		t.Errorf("regexp identity: %v", err)
	}

	tests := []struct {
		name string
		data []byte
		opt  sigstore.VerifyOptions
		want string
	}{
		{"wrong identity", manifest, sigstore.VerifyOptions{TrustedRoot: trusted, Identity: sigstore.Identity{Subject: "mallory@acme.dev", Issuer: issuer}, InsecureIgnoreTlog: true},
			"signed by release@acme.dev (issuer https://accounts.acme.dev), but mallory@acme.dev (issuer https://accounts.acme.dev) was required"},
		{"wrong issuer", manifest, sigstore.VerifyOptions{TrustedRoot: trusted, Identity: sigstore.Identity{Subject: subject, Issuer: "https://token.actions.githubusercontent.com"}, InsecureIgnoreTlog: true},
			"was required"},
		{"tampered manifest", append([]byte(nil), strings.Replace(string(manifest), "1.0.0", "1.0.1", 1)...), good, "pack.json changed after signing"},
		{"another artifact", []byte("some other file"), good, "over other bytes"},
		{"no identity", manifest, sigstore.VerifyOptions{TrustedRoot: trusted}, "--certificate-identity"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := sigstore.Verify(fromDisk, tt.data, tt.opt)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want %q", err, tt.want)
			}
		})
	}

	// A root that does not know this CA: an unknown certificate.
	other, otherRoot := stack(t)
	_ = other
	if _, err := sigstore.Verify(fromDisk, manifest, sigstore.VerifyOptions{TrustedRoot: otherRoot, Identity: good.Identity, InsecureIgnoreTlog: true}); err == nil || !strings.Contains(err.Error(), "unknown certificate or timestamp authority") {
		t.Errorf("unknown CA: %v", err)
	}
	if len(s.Tokens()) != 1 || s.Tokens()[0] != token {
		t.Errorf("Fulcio saw tokens %d", len(s.Tokens()))
	}
}

func TestKeyBasedRoundTrip(t *testing.T) {
	_, trusted := stack(t)
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	der, _ := x509.MarshalPKCS8PrivateKey(key)
	privPEM := pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})
	pubDER, _ := x509.MarshalPKIXPublicKey(&key.PublicKey)
	pubPEM := pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pubDER})

	bundle, err := sigstore.SignWithKey(context.Background(), manifest, privPEM, sigstore.Services{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sigstore.Verify(bundle, manifest, sigstore.VerifyOptions{PublicKey: pubPEM}); err != nil {
		t.Fatal(err)
	}
	if _, err := sigstore.Verify(bundle, []byte("changed"), sigstore.VerifyOptions{PublicKey: pubPEM}); err == nil || !strings.Contains(err.Error(), "pack.json changed") {
		t.Errorf("tampered: %v", err)
	}
	other, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	otherDER, _ := x509.MarshalPKIXPublicKey(&other.PublicKey)
	if _, err := sigstore.Verify(bundle, manifest, sigstore.VerifyOptions{PublicKey: pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: otherDER})}); err == nil {
		t.Error("verified with another key")
	}
	_ = trusted
}

func TestExpiredCertificate(t *testing.T) {
	s, trusted := stack(t)
	s.Expired = true
	bundle, err := sigstore.SignKeyless(context.Background(), manifest, sigstore.IDToken(sigstoretest.Token(subject, issuer)), sigstore.Services{FulcioURL: s.Fulcio.URL, TSAURL: s.TSAURL()})
	if err != nil {
		t.Fatal(err)
	}
	_, err = sigstore.Verify(bundle, manifest, sigstore.VerifyOptions{TrustedRoot: trusted, Identity: sigstore.Identity{Subject: subject, Issuer: issuer}, InsecureIgnoreTlog: true})
	if err == nil || !strings.Contains(err.Error(), "was not valid at the signature's timestamp") {
		t.Errorf("expired certificate: %v", err)
	}
}

func TestEd25519phKeyRoundTrip(t *testing.T) {
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	der, _ := x509.MarshalPKCS8PrivateKey(priv)
	pubDER, _ := x509.MarshalPKIXPublicKey(pub)
	bundle, err := sigstore.SignWithKey(context.Background(), manifest, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), sigstore.Services{})
	if err != nil {
		t.Fatal(err)
	}
	pubPEM := pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pubDER})
	if _, err := sigstore.Verify(bundle, manifest, sigstore.VerifyOptions{PublicKey: pubPEM}); err != nil {
		t.Fatal(err)
	}
	if _, err := sigstore.Verify(bundle, []byte("x"), sigstore.VerifyOptions{PublicKey: pubPEM}); err == nil {
		t.Error("verified over other bytes")
	}
}

// TestSigningConfig picks the services a signing_config.json lists.
func TestSigningConfig(t *testing.T) {
	cfg := `{"mediaType":"application/vnd.dev.sigstore.signingconfig.v0.2+json",
 "caUrls":[{"url":"https://fulcio.acme.dev","majorApiVersion":1,"validFor":{"start":"2020-01-01T00:00:00Z"},"operator":"acme"}],
 "rekorTlogUrls":[{"url":"https://rekor.acme.dev","majorApiVersion":1,"validFor":{"start":"2020-01-01T00:00:00Z"},"operator":"acme"}],
 "rekorTlogConfig":{"selector":"ANY"},
 "tsaUrls":[{"url":"https://tsa.acme.dev/api/v1/timestamp","majorApiVersion":1,"validFor":{"start":"2020-01-01T00:00:00Z"},"operator":"acme"}],
 "tsaConfig":{"selector":"ANY"}}`
	path := filepath.Join(t.TempDir(), "signing_config.json")
	os.WriteFile(path, []byte(cfg), 0o644)
	s, err := sigstore.ServicesFromSigningConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	if s.FulcioURL != "https://fulcio.acme.dev" || s.RekorURL != "https://rekor.acme.dev" || s.TSAURL != "https://tsa.acme.dev/api/v1/timestamp" {
		t.Errorf("%+v", s)
	}
}

// TestServeRefusesOtherProtocols: a helper asked in another protocol
// version does nothing, and says which version it speaks.
func TestServeRefusesOtherProtocols(t *testing.T) {
	for _, req := range []string{`{"op":"verify"}`, `{"protocol":1,"op":"verify"}`, `{"protocol":99,"op":"verify"}`} {
		resp := sigstore.Serve(context.Background(), strings.NewReader(req))
		if resp.Protocol != sigstorehelper.Protocol || !strings.Contains(resp.Error, "install the helper that comes with your wop") {
			t.Errorf("%s: %+v", req, resp)
		}
	}
	resp := sigstore.Serve(context.Background(), strings.NewReader(fmt.Sprintf(`{"protocol":%d,"op":"nope"}`, sigstorehelper.Protocol)))
	if resp.Protocol != sigstorehelper.Protocol || !strings.Contains(resp.Error, `unknown operation "nope"`) {
		t.Errorf("current protocol: %+v", resp)
	}
}
