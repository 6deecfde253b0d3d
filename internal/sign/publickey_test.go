package sign

import (
	"encoding/base64"
	"encoding/pem"
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
