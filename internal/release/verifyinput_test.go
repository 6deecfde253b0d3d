package release

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/exitcode"
	"github.com/wop-cli/wop/internal/verify"
)

func TestOpenVerifyInput(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a@1.0.0.tgz"), []byte("bytes"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		arg, want, wantErr string
	}{
		{arg: "a@1.0.0.tgz", want: "bytes"}, // a file whose name holds '@' is the file
		{arg: "missing.tgz", wantErr: "missing.tgz: "},
		{arg: "acme.tools@1.0.0", wantErr: "acme.tools@1.0.0: no such file; to verify a published version, pass --registry URL"},
	}
	for _, tt := range tests {
		var opt verify.Options
		in, err := OpenVerifyInput(context.Background(), nil, tt.arg, filepath.Join(dir, tt.arg), &opt)
		if tt.wantErr != "" {
			var u *exitcode.UsageError
			if !errors.As(err, &u) || !strings.HasPrefix(err.Error(), tt.wantErr) {
				t.Errorf("%s: err = %v; want a usage error starting %q", tt.arg, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tt.arg, err)
		}
		got, _ := io.ReadAll(in)
		in.Close()
		if string(got) != tt.want || opt.Want != "" {
			t.Errorf("%s: read %q, Want %q", tt.arg, got, opt.Want)
		}
	}
}

func TestVerifyServedNamesMissingSignature(t *testing.T) {
	_, err := VerifyServed(strings.NewReader("{}"), "v.sig", filepath.Join(t.TempDir(), "v.sig"), verify.Options{})
	if err == nil || !strings.HasPrefix(err.Error(), "signature v.sig: ") {
		t.Fatalf("err = %v; want it to name the signature file", err)
	}
}
