package publish

import (
	"fmt"

	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/spec"
)

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

// Generation is the spec generation the archive is published as: the one
// asked (--spec) forces, or under spec.Auto the one its engine range picks,
// as the registry decides the tree it publishes to.
func (a *Archive) Generation(asked spec.Tree) (spec.Tree, error) {
	doc, err := jsonpos.Parse(a.Manifest)
	if err != nil {
		return "", fmt.Errorf("pack.json: %w", err)
	}
	return asked.Resolve(doc.Root), nil
}
