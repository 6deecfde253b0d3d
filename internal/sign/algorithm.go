package sign

import (
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rsa"
)

// Algorithm names a parsed key's algorithm as people know it ("RSA",
// "ECDSA P-384"), for messages that refuse it, never as a Go type; it
// completes "the key is ...".
func Algorithm(key any) string {
	switch k := key.(type) {
	case ed25519.PrivateKey, ed25519.PublicKey:
		return "Ed25519"
	case *rsa.PrivateKey, *rsa.PublicKey:
		return "RSA"
	case *ecdsa.PrivateKey:
		return "ECDSA " + k.Curve.Params().Name
	case *ecdsa.PublicKey:
		return "ECDSA " + k.Curve.Params().Name
	case *ecdh.PrivateKey, *ecdh.PublicKey:
		return "X25519 or ECDH"
	}
	return "of an unknown algorithm"
}
