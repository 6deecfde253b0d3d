package flagfile

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/exitcode"
)

// TestRead: a missing file is a usage error naming the flag and the path
// as typed, not the absolute one.
func TestRead(t *testing.T) {
	abs := filepath.Join(t.TempDir(), "nope.json")
	_, err := Read("--version-manifest", "nope.json", abs, MaxSmall)
	var usage *exitcode.UsageError
	if !errors.As(err, &usage) || !strings.HasPrefix(err.Error(), "--version-manifest nope.json: ") || strings.Contains(err.Error(), abs) {
		t.Errorf("%v", err)
	}
}

// TestPrivateKeyMode: a key others can read is a warning, or refused when
// strict, with chmod as the hint.
func TestPrivateKeyMode(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no POSIX modes")
	}
	abs := filepath.Join(t.TempDir(), "k.pem")
	if err := os.WriteFile(abs, []byte("KEY"), 0o644); err != nil {
		t.Fatal(err)
	}
	var warn bytes.Buffer
	if data, err := PrivateKey(&warn, "k.pem", abs, false); err != nil || string(data) != "KEY" || !strings.Contains(warn.String(), "--key k.pem is readable by others (mode 0644); chmod 600 it") {
		t.Errorf("lenient: %q %v %q", data, err, warn.String())
	}
	var h exitcode.Hinter
	if _, err := PrivateKey(&warn, "k.pem", abs, true); !errors.As(err, &h) || !strings.Contains(h.Hint(), "chmod 600 k.pem") {
		t.Errorf("strict: %v", err)
	}
}
