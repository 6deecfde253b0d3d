// Package sign signs and verifies pack manifests with Ed25519 over their
// canonical JSON bytes (FORMAT.md §3), and reads and writes the key files.
package sign

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"strings"
)

// PrivateKey is an Ed25519 signing key with its registry key id. Its String
// and GoString never print the key.
type PrivateKey struct {
	KeyID string
	key   ed25519.PrivateKey
}

func (k *PrivateKey) String() string   { return "ed25519 private key " + k.KeyID + " [redacted]" }
func (k *PrivateKey) GoString() string { return k.String() }

// Public returns the public half.
func (k *PrivateKey) Public() ed25519.PublicKey { return k.key.Public().(ed25519.PublicKey) }

// Sign signs msg with pure Ed25519 (not Ed25519ph).
func (k *PrivateKey) Sign(msg []byte) []byte { return ed25519.Sign(k.key, msg) }

// ParsePrivateKey reads a PKCS#8 PEM Ed25519 private key, as written by
// `openssl genpkey -algorithm ed25519`, Node's crypto and `wop key generate`.
func ParsePrivateKey(pemBytes []byte, keyID string) (*PrivateKey, error) {
	block, _ := pem.Decode(pemBytes)
	if block == nil {
		return nil, errors.New("not a PEM file (expected -----BEGIN PRIVATE KEY-----)")
	}
	if block.Type != "PRIVATE KEY" {
		return nil, fmt.Errorf("PEM block is %q; expected an unencrypted PKCS#8 \"PRIVATE KEY\" (openssl genpkey -algorithm ed25519)", block.Type)
	}
	k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("PKCS#8: %w", err)
	}
	ek, ok := k.(ed25519.PrivateKey)
	if !ok {
		return nil, fmt.Errorf("the key is %s, not Ed25519", Algorithm(k))
	}
	return &PrivateKey{KeyID: keyID, key: ek}, nil
}

// ParsePublicKey reads an SPKI PEM ("BEGIN PUBLIC KEY") Ed25519 public key,
// or the bare base64 of its 44 DER bytes as registries publish it.
func ParsePublicKey(data []byte) (ed25519.PublicKey, error) {
	der := data
	if block, _ := pem.Decode(data); block != nil {
		if block.Type != "PUBLIC KEY" {
			return nil, fmt.Errorf("PEM block is %q; expected \"PUBLIC KEY\"", block.Type)
		}
		der = block.Bytes
	} else if b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(string(data))); err == nil {
		der = b
	}
	k, err := x509.ParsePKIXPublicKey(der)
	if err != nil {
		return nil, fmt.Errorf("not an SPKI public key: %w", err)
	}
	ek, ok := k.(ed25519.PublicKey)
	if !ok {
		return nil, fmt.Errorf("the key is %s, not Ed25519", Algorithm(k))
	}
	return ek, nil
}

// KeyPair is a freshly generated key in its file encodings.
type KeyPair struct {
	PrivatePEM []byte // PKCS#8
	PublicPEM  []byte // SPKI
	PublicB64  string // base64 of the SPKI DER, what a registry operator registers
}

// Generate makes a new Ed25519 key pair.
func Generate() (*KeyPair, error) {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, err
	}
	privDER, err := x509.MarshalPKCS8PrivateKey(priv)
	if err != nil {
		return nil, err
	}
	pubDER, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		return nil, err
	}
	return &KeyPair{
		PrivatePEM: pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: privDER}),
		PublicPEM:  pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pubDER}),
		PublicB64:  base64.StdEncoding.EncodeToString(pubDER),
	}, nil
}
