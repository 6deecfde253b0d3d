package build

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/wop-cli/wop/internal/exitcode"
	"github.com/wop-cli/wop/internal/invocation"
	"github.com/wop-cli/wop/internal/sign"
)

// KeyChoice is what the signing flags of build, sign and publish chose
// (Sigstore aside), for Signing to turn into one pack's Signing.
type KeyChoice struct {
	Key, KeyID, Signature string // --key and --signature as typed, --key-id
	Spec                  sign.Spec
	Unsigned              bool
	EnvKeyID              string // $WOP_KEY_ID
	ConfigKeyID           string // keyId in the pack's .wop.yaml
	// Invoked is the command that started wop, for the hint that names
	// 'wop key generate'.
	Invoked invocation.Name
	// Parsed is --key parsed once for every pack (nil: ReadKey reads it
	// now, and it is parsed here, saying why it does not parse).
	Parsed        *sign.PrivateKey
	ReadKey       func() ([]byte, error)
	ReadSignature func() ([]byte, error)
}

// ResolveKeyID picks the signing key id: --key-id, else $WOP_KEY_ID, else
// keyId in the pack's .wop.yaml, else the --key file's name without .pem
// (what 'wop key generate --key-id ID' writes: ID.pem). "" if none applies.
func (k *KeyChoice) ResolveKeyID() string {
	switch {
	case k.KeyID != "":
		return k.KeyID
	case k.EnvKeyID != "":
		return k.EnvKeyID
	case k.ConfigKeyID != "":
		return k.ConfigKeyID
	case k.Key != "":
		return strings.TrimSuffix(filepath.Base(k.Key), ".pem")
	}
	return ""
}

// Signing resolves the choice into a Signing for the pack name: only
// private.* packs may go unsigned without saying so.
func (k *KeyChoice) Signing(name string) (Signing, error) {
	s := Signing{Spec: k.Spec, KeyID: k.ResolveKeyID()}
	switch {
	case k.Key != "":
		if s.KeyID == "" {
			return s, exitcode.Usagef("--key needs --key-id: the id the registry knows the key by")
		}
		if k.Parsed != nil {
			key := *k.Parsed
			key.KeyID = s.KeyID
			s.Key = &key
			break
		}
		pemBytes, err := k.ReadKey()
		if err != nil {
			return s, err
		}
		s.Key, err = sign.ParsePrivateKey(pemBytes, s.KeyID)
		if err != nil {
			return s, exitcode.Usagef("--key %s: %v", k.Key, err)
		}
	case k.Signature != "":
		if s.KeyID == "" {
			return s, exitcode.Usagef("--signature needs --key-id (or WOP_KEY_ID, or keyId in .wop.yaml): the key that made the signature")
		}
		var err error
		if s.Signature, err = k.ReadSignature(); err != nil {
			return s, err
		}
	case !k.Unsigned && !strings.HasPrefix(name, "private."):
		return s, exitcode.WithHint(fmt.Errorf("%s would be unsigned: registries refuse unsigned packs outside private.*", name),
			"pass --key KEY.pem --key-id ID (make one with '"+k.Invoked.Cmd("key generate")+"'), or --unsigned for a local test build")
	}
	return s, nil
}
