package sigstorehelper

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLocate(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	if _, err := Locate(func(string) string { return "" }); err == nil || !strings.Contains(err.Error(), "go install github.com/wop-cli/wop/cmd/wop-sigstore") {
		t.Errorf("missing helper: %v", err)
	}
	if p, err := Locate(func(k string) string { return map[string]string{"WOP_SIGSTORE_HELPER": "/opt/h"}[k] }); err != nil || p != "/opt/h" {
		t.Errorf("env: %q %v", p, err)
	}
}

// TestRunReportsHelperErrors: an answer's error, and a helper that is not
// one, both come back as errors.
func TestRunReportsHelperErrors(t *testing.T) {
	dir := t.TempDir()
	answer := filepath.Join(dir, "answer")
	os.WriteFile(answer, []byte("#!/bin/sh\ncat >/dev/null\necho '{\"error\":\"signed by x, but y was required\"}'\nexit 1\n"), 0o755)
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
