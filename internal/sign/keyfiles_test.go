package sign

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteKeyPairNeverOverwrites(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "keys")
	priv, pub, kp, err := WriteKeyPair(dir, "acme-1")
	if err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(priv); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("private key mode: %v %v", info, err)
	}
	if data, _ := os.ReadFile(pub); string(data) != string(kp.PublicPEM) {
		t.Error("public key file differs from the pair")
	}
	var exists *ExistsError
	if _, _, _, err := WriteKeyPair(dir, "acme-1"); !errors.As(err, &exists) || exists.Path != priv {
		t.Errorf("second write: %v", err)
	}
	if data, _ := os.ReadFile(priv); string(data) != string(kp.PrivatePEM) {
		t.Error("the first private key was replaced")
	}
	// The public file alone in the way: the new private key is removed.
	if err := os.Remove(priv); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := WriteKeyPair(dir, "acme-1"); !errors.As(err, &exists) || exists.Path != pub {
		t.Errorf("public in the way: %v", err)
	}
	if _, err := os.Stat(priv); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("private key left behind: %v", err)
	}
}
