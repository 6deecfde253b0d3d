package sign

import (
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"strings"
)

// CheckPublicKey accepts any SPKI public key (Ed25519 for the manual
// scheme, ECDSA and others for Sigstore bundles) in PEM or base64, and
// says what is wrong with anything else: a private key above all, which a
// verifier must never be handed.
func CheckPublicKey(raw []byte) error {
	der := raw
	if block, _ := pem.Decode(raw); block != nil {
		if strings.Contains(block.Type, "PRIVATE KEY") {
			return errors.New(`this is a private key ("` + block.Type + `"); verify needs the public one: the .pub.pem 'wop key generate' wrote beside it, or 'openssl pkey -in KEY.pem -pubout'`)
		}
		if block.Type != "PUBLIC KEY" {
			return errors.New(`PEM block is "` + block.Type + `"; want "PUBLIC KEY" (SPKI)`)
		}
		der = block.Bytes
	} else if b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(string(raw))); err == nil {
		der = b
	}
	if _, err := x509.ParsePKIXPublicKey(der); err != nil {
		return errors.New("not an SPKI public key: " + err.Error())
	}
	return nil
}
