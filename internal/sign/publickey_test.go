package sign

import (
	"encoding/base64"
	"encoding/pem"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheckPublicKey(t *testing.T) {
	kp, err := Generate()
	if err != nil {
		t.Fatal(err)
	}
	block, _ := pem.Decode(kp.PublicPEM)
	tests := []struct {
		name string
		raw  []byte
		want string // "" for accepted, else a part of the error
	}{
		{"PEM", kp.PublicPEM, ""},
		{"base64", []byte(base64.StdEncoding.EncodeToString(block.Bytes) + "\n"), ""},
		{"private", kp.PrivatePEM, "this is a private key"},
		{"other PEM", pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: []byte{1}}), `PEM block is "CERTIFICATE"`},
		{"junk", []byte("hello"), "not an SPKI public key"},
	}
	for _, tt := range tests {
		err := CheckPublicKey(tt.raw)
		if tt.want == "" && err != nil || tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
}

func TestReadPublicKeyArg(t *testing.T) {
	kp, err := Generate()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "k.pub.pem")
	if err := os.WriteFile(file, kp.PublicPEM, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		arg, path string
		want      string // "" for accepted, else a part of the error
	}{
		{"k.pub.pem", file, ""},
		{kp.PublicB64, filepath.Join(dir, "none"), ""}, // the key itself, as registries list it
		{"aGVsbG8=", filepath.Join(dir, "none"), "--key: no file aGVsbG8=, and as base64 it is not a public key"},
		{"missing.pem", filepath.Join(dir, "missing.pem"), "--key: no such file or directory (want a public key file, or the key's base64)"},
	}
	for _, tt := range tests {
		_, err := ReadPublicKeyArg(tt.arg, tt.path, 1<<20)
		if tt.want == "" && err != nil || tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("%s: %v, want %q", tt.arg, err, tt.want)
		}
	}
}
