package build

import (
	"errors"
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/exitcode"
)

// TestResolveKeyID: --key-id, then $WOP_KEY_ID, then .wop.yaml's keyId,
// then the key file's name.
func TestResolveKeyID(t *testing.T) {
	for _, tt := range []struct {
		k    KeyChoice
		want string
	}{
		{KeyChoice{KeyID: "flag", EnvKeyID: "env", ConfigKeyID: "cfg", Key: "keys/file.pem"}, "flag"},
		{KeyChoice{EnvKeyID: "env", ConfigKeyID: "cfg", Key: "keys/file.pem"}, "env"},
		{KeyChoice{ConfigKeyID: "cfg", Key: "keys/file.pem"}, "cfg"},
		{KeyChoice{Key: "keys/file.pem"}, "file"},
		{KeyChoice{}, ""},
	} {
		if got := tt.k.ResolveKeyID(); got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.k, got, tt.want)
		}
	}
}

// TestKeyChoiceSigning: a signature needs a key id; a public pack without
// a signer is refused with a hint, a private one is not; a key that does
// not parse is a usage error naming it.
func TestKeyChoiceSigning(t *testing.T) {
	var usage *exitcode.UsageError
	if _, err := (&KeyChoice{Signature: "s.sig"}).Signing("acme.tools"); !errors.As(err, &usage) || !strings.Contains(err.Error(), "--signature needs --key-id") {
		t.Errorf("signature without id: %v", err)
	}
	var h exitcode.Hinter
	if _, err := (&KeyChoice{}).Signing("acme.tools"); !errors.As(err, &h) || !strings.Contains(err.Error(), "acme.tools would be unsigned") {
		t.Errorf("unsigned public: %v", err)
	}
	if s, err := (&KeyChoice{}).Signing("private.tools"); err != nil || s.Key != nil {
		t.Errorf("unsigned private: %+v %v", s, err)
	}
	bad := &KeyChoice{Key: "k.pem", KeyID: "k", ReadKey: func() ([]byte, error) { return []byte("not a key"), nil }}
	if _, err := bad.Signing("acme.tools"); !errors.As(err, &usage) || !strings.HasPrefix(err.Error(), "--key k.pem: ") {
		t.Errorf("bad key: %v", err)
	}
	sig := &KeyChoice{Signature: "s.sig", KeyID: "k", ReadSignature: func() ([]byte, error) { return []byte("SIG"), nil }}
	if s, err := sig.Signing("acme.tools"); err != nil || string(s.Signature) != "SIG" || s.KeyID != "k" {
		t.Errorf("signature: %+v %v", s, err)
	}
}
