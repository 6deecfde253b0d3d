package sign

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/canon"
)

// Keys made by openssl, Node and wop itself all load and round-trip.
func TestKeysFromOtherTools(t *testing.T) {
	for _, name := range []string{"openssl", "node"} {
		t.Run(name, func(t *testing.T) {
			privPEM, err := os.ReadFile("testdata/" + name + ".pem")
			if err != nil {
				t.Fatal(err)
			}
			pubPEM, err := os.ReadFile("testdata/" + name + ".pub.pem")
			if err != nil {
				t.Fatal(err)
			}
			priv, err := ParsePrivateKey(privPEM, "k1")
			if err != nil {
				t.Fatal(err)
			}
			pub, err := ParsePublicKey(pubPEM)
			if err != nil {
				t.Fatal(err)
			}
			msg := []byte(`{"name":"a"}`)
			if err := Verify(pub, msg, priv.Sign(msg)); err != nil {
				t.Fatal(err)
			}
		})
	}
	kp, err := Generate()
	if err != nil {
		t.Fatal(err)
	}
	priv, err := ParsePrivateKey(kp.PrivatePEM, "k")
	if err != nil {
		t.Fatal(err)
	}
	pub, err := ParsePublicKey([]byte(kp.PublicB64))
	if err != nil {
		t.Fatal(err)
	}
	if !pub.Equal(priv.Public()) {
		t.Error("base64 public key does not match")
	}
}

func TestPrivateKeyNeverPrints(t *testing.T) {
	kp, _ := Generate()
	priv, _ := ParsePrivateKey(kp.PrivatePEM, "k")
	for _, s := range []string{fmt.Sprint(priv), fmt.Sprintf("%v %+v %#v %s", priv, priv, priv, priv)} {
		if !strings.Contains(s, "[redacted]") || strings.Contains(s, string(kp.PrivatePEM[30:50])) {
			t.Errorf("private key printed: %s", s)
		}
	}
}

func TestBadKeys(t *testing.T) {
	for name, data := range map[string]string{
		"not pem":    "hello",
		"public pem": "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAORLpnWQX+LXPEMbzfru6TnEolAq5bkg+mIcuoggEe/w=\n-----END PUBLIC KEY-----\n",
	} {
		if _, err := ParsePrivateKey([]byte(data), "k"); err == nil {
			t.Errorf("%s accepted as private key", name)
		}
	}
}

func TestVerifyFailures(t *testing.T) {
	kp, _ := Generate()
	priv, _ := ParsePrivateKey(kp.PrivatePEM, "k")
	other, _ := Generate()
	otherPub, _ := ParsePublicKey(other.PublicPEM)
	msg := []byte(`{"a":1}`)
	sig := priv.Sign(msg)
	if err := Verify(otherPub, msg, sig); !errors.Is(err, ErrBadSignature) {
		t.Errorf("wrong key: %v", err)
	}
	if err := Verify(priv.Public(), []byte(`{"a":2}`), sig); !errors.Is(err, ErrBadSignature) {
		t.Errorf("tampered: %v", err)
	}
	b64 := []byte("bm90IGEgc2lnbmF0dXJlIGJ1dCBiYXNlNjQgdGV4dCB0aGF0IHNvbWVvbmUgY29tbWl0dGVkIGJ5IGhhbmQgc28gaXQgaXM=\n")
	if err := Verify(priv.Public(), msg, b64[:89]); err == nil || !strings.Contains(err.Error(), "base64") {
		t.Errorf("89-byte file: %v", err)
	}
}

func TestBlocksAndV2Rules(t *testing.T) {
	doc, _ := canon.Parse([]byte(`{"name":"a.b","signing":{"method":"ed25519","keyId":"x"},"version":"1.0.0"}`))
	b1, _ := Block(SpecV1, "team-1")
	got, err := Manifest(doc.Root, b1)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"name":"a.b","signing":{"method":"manual","publicKeyRef":"team-1","signatureRef":"keys/pack.json.sig"},"version":"1.0.0"}`
	if string(got) != want {
		t.Errorf("v1 manifest\n got %s\nwant %s", got, want)
	}
	b2, _ := Block(SpecV2, "team-1")
	got, _ = Manifest(doc.Root, b2)
	if !strings.Contains(string(got), `"signing":{"keyId":"team-1","scheme":"ed25519-canonical-json"}`) {
		t.Errorf("v2 manifest %s", got)
	}
	for src, ok := range map[string]bool{
		`{"kind":"node","engines":{"openwop":">=1.2.0 <3.0.0"}}`: true,
		`{"engines":{"openwop":">=1.2.0 <3.0.0"}}`:               false,
		`{"kind":"node","engines":{"openwop":">=1.2.0 <2.0.0"}}`: false,
		`{"kind":"node","engines":{"openwop":">=1.2 <3.0.0"}}`:   true, // one- and two-part floors are v2 (registry-tree.mjs)
		`{"kind":"node","engines":{"openwop":">=1 <3.0.0"}}`:     true,
		`{"kind":"node","engines":{"openwop":">=1.2.0 <3.1.0"}}`: false,
		`{"kind":"node","engines":{"openwop":">=1.2.0"}}`:        false,
	} {
		d, _ := canon.Parse([]byte(src))
		if err := CheckV2(d.Root); (err == nil) != ok {
			t.Errorf("CheckV2(%s) = %v", src, err)
		}
	}
}

func TestAlgorithmNamesNoGoType(t *testing.T) {
	rsaKey, err := rsa.GenerateKey(rand.Reader, 1024)
	if err != nil {
		t.Fatal(err)
	}
	ecKey, err := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	pub, _, _ := ed25519.GenerateKey(rand.Reader)
	tests := []struct {
		name string
		key  any
		want string
	}{
		{"rsa", rsaKey, "RSA"},
		{"rsa public", &rsaKey.PublicKey, "RSA"},
		{"ecdsa", ecKey, "ECDSA P-384"},
		{"ed25519", pub, "Ed25519"},
		{"other", "a string", "of an unknown algorithm"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Algorithm(tt.key); got != tt.want {
				t.Errorf("Algorithm = %q, want %q", got, tt.want)
			}
		})
	}
}
