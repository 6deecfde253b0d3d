package verify

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/exitcode"
)

// TestFlagsRead: the version manifest is read, no Sigstore check is set
// without --key or an identity, and a --source that cannot be loaded is a
// usage error naming the flag's value.
func TestFlagsRead(t *testing.T) {
	dir := t.TempDir()
	abs := func(p string) string { return filepath.Join(dir, p) }
	if err := os.WriteFile(abs("1.0.0.json"), []byte(`{"version":"1.0.0"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	var opt Options
	f := Flags{VersionManifest: "1.0.0.json", Abs: abs, Getenv: func(string) string { return "" }}
	if err := f.Read(context.Background(), &opt); err != nil {
		t.Fatal(err)
	}
	if string(opt.VersionManifest) != `{"version":"1.0.0"}` || opt.Sigstore != nil || opt.Key != nil {
		t.Fatalf("opt = %+v", opt)
	}
	f.Sigstore.Subject = "me@example.com"
	f.Source = "missing"
	err := f.Read(context.Background(), &opt)
	var ue *exitcode.UsageError
	if !errors.As(err, &ue) || !strings.HasPrefix(err.Error(), "missing: ") {
		t.Fatalf("--source missing: %v, want a usage error naming it", err)
	}
	if opt.Sigstore == nil {
		t.Error("an identity sets the Sigstore check")
	}
}
