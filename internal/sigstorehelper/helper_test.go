package sigstorehelper

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLocate: $WOP_SIGSTORE_HELPER, then the helper beside wop, then PATH,
// so a stale helper on PATH never shadows the one installed with wop.
func TestLocate(t *testing.T) {
	noEnv := func(string) string { return "" }
	bin, onPath := t.TempDir(), t.TempDir()
	exe := func() (string, error) { return filepath.Join(bin, "wop"), nil }
	t.Setenv("PATH", onPath)
	if _, err := Locate(noEnv, exe); err == nil || !strings.Contains(err.Error(), "go install github.com/wop-cli/wop/cmd/wop-sigstore") {
		t.Errorf("missing helper: %v", err)
	}
	pathHelper := filepath.Join(onPath, Name)
	os.WriteFile(pathHelper, []byte("#!/bin/sh\n"), 0o755)
	if p, err := Locate(noEnv, exe); err != nil || p != pathHelper {
		t.Errorf("PATH only: %q %v", p, err)
	}
	beside := filepath.Join(bin, Name)
	os.WriteFile(beside, []byte("#!/bin/sh\n"), 0o755)
	if p, err := Locate(noEnv, exe); err != nil || p != beside {
		t.Errorf("beside wop must win over PATH: %q %v", p, err)
	}
	if p, err := Locate(func(k string) string { return map[string]string{"WOP_SIGSTORE_HELPER": "/opt/h"}[k] }, exe); err != nil || p != "/opt/h" {
		t.Errorf("env: %q %v", p, err)
	}
}

// TestRunRefusesOtherProtocols: a helper that answers without wop's
// protocol version (an older release) or with another one is refused with
// the command that updates it, whatever it answered.
func TestRunRefusesOtherProtocols(t *testing.T) {
	dir := t.TempDir()
	for name, answer := range map[string]string{
		"old":    `{"signer":"someone"}`,
		"future": `{"protocol":99,"signer":"someone"}`,
	} {
		helper := filepath.Join(dir, name)
		os.WriteFile(helper, []byte("#!/bin/sh\ncat >/dev/null\necho '"+answer+"'\n"), 0o755)
		_, err := Run(context.Background(), helper, Request{Op: "verify"})
		var pe *ProtocolError
		if !errors.As(err, &pe) || !strings.Contains(err.Error(), "go install github.com/wop-cli/wop/cmd/wop-sigstore") || !strings.Contains(err.Error(), helper) {
			t.Errorf("%s helper: %v", name, err)
		}
	}
	good := filepath.Join(dir, "good")
	os.WriteFile(good, []byte(fmt.Sprintf("#!/bin/sh\ncat >/dev/null\necho '{\"protocol\":%d,\"signer\":\"someone\"}'\n", Protocol)), 0o755)
	if resp, err := Run(context.Background(), good, Request{Op: "verify"}); err != nil || resp.Signer != "someone" {
		t.Errorf("matching helper: %+v %v", resp, err)
	}
}

// TestRunReportsHelperErrors: an answer's error, and a helper that is not
// one, both come back as errors.
func TestRunReportsHelperErrors(t *testing.T) {
	dir := t.TempDir()
	answer := filepath.Join(dir, "answer")
	os.WriteFile(answer, []byte(fmt.Sprintf("#!/bin/sh\ncat >/dev/null\necho '{\"protocol\":%d,\"error\":\"signed by x, but y was required\"}'\nexit 1\n", Protocol)), 0o755)
	if _, err := Run(context.Background(), answer, Request{Op: "verify"}); err == nil || err.Error() != "signed by x, but y was required" {
		t.Errorf("answer error: %v", err)
	}
	junk := filepath.Join(dir, "junk")
	os.WriteFile(junk, []byte("#!/bin/sh\necho oops >&2\nexit 3\n"), 0o755)
	if _, err := Run(context.Background(), junk, Request{Op: "verify"}); err == nil || !strings.Contains(err.Error(), "oops") {
		t.Errorf("junk helper: %v", err)
	}
}

func TestIDTokenNeverFormats(t *testing.T) {
	tok := IDToken("eyJhbGciOiJub25lIn0.secret.sig")
	for _, s := range []string{fmt.Sprint(tok), fmt.Sprintf("%v %s %+v %#v", tok, tok, tok, tok)} {
		if strings.Contains(s, "secret") {
			t.Errorf("token printed: %s", s)
		}
	}
}

// TestSignerAndVerifier: the functions build and verify take run the
// helper with the request and the data; a signing failure says sigstore.
func TestSignerAndVerifier(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good")
	os.WriteFile(good, []byte(fmt.Sprintf("#!/bin/sh\ncat >/dev/null\necho '{\"protocol\":%d,\"signer\":\"someone\",\"bundle\":\"Yg==\"}'\n", Protocol)), 0o755)
	if b, err := Signer(context.Background(), good, Request{Op: "sign-key"})([]byte("m")); err != nil || string(b) != "b" {
		t.Errorf("Signer: %q %v", b, err)
	}
	if _, err := Signer(context.Background(), filepath.Join(dir, "none"), Request{Op: "sign-key"})([]byte("m")); err == nil || !strings.HasPrefix(err.Error(), "sigstore: ") {
		t.Errorf("Signer without a helper: %v", err)
	}
	getenv := func(k string) string {
		if k == "WOP_SIGSTORE_HELPER" {
			return good
		}
		return ""
	}
	if who, err := Verifier(context.Background(), getenv, Request{Op: "verify"})([]byte("b"), []byte("m")); err != nil || who != "someone" {
		t.Errorf("Verifier: %q %v", who, err)
	}
}
