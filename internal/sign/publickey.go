package sign

import (
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/wop-cli/wop/internal/safefile"
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

// ReadPublicKeyArg reads a public key named on the command line: a file
// (SPKI PEM, or a file holding its base64) at path, which is arg made
// absolute, or, when no such file exists, arg itself as the base64 of the
// key, as registries list it. A private key, or anything else that is not
// a public key, is refused with the reason (CheckPublicKey). Errors name
// the flag (--key) and are the caller's to fix.
func ReadPublicKeyArg(arg, path string, max int64) ([]byte, error) {
	raw, err := safefile.Read(path, safefile.Options{Max: max, FollowLinks: true})
	if errors.Is(err, fs.ErrNotExist) {
		if der, decErr := base64.StdEncoding.DecodeString(strings.TrimSpace(arg)); decErr == nil && len(der) > 0 {
			raw, err = []byte(arg), nil
			if _, perr := x509.ParsePKIXPublicKey(der); perr != nil {
				return nil, fmt.Errorf("--key: no file %s, and as base64 it is not a public key: %v", arg, perr)
			}
		}
	}
	if pe := (*fs.PathError)(nil); errors.As(err, &pe) {
		err = pe.Err // the file is named as typed, not by its absolute path
	}
	if err != nil {
		return nil, fmt.Errorf("--key: %v (want a public key file, or the key's base64)", err)
	}
	if err := CheckPublicKey(raw); err != nil {
		return nil, fmt.Errorf("--key %s: %v", arg, err)
	}
	return raw, nil
}
