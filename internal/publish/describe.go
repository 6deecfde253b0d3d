package publish

import "fmt"

// SigningWords says in words how the archive is signed, for a person
// reading what a dry run would send (SigningMethod is the registry's word).
func (a *Archive) SigningWords() string {
	switch a.SigningMethod() {
	case "none":
		return "unsigned"
	case "sigstore":
		return "signed with a Sigstore bundle (keyless: a certificate for the signer's identity)"
	}
	return fmt.Sprintf("signed with the key %q (Ed25519 over the canonical pack.json)", a.KeyID())
}
