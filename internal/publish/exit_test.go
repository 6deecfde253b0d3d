package publish

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/exitcode"
	"github.com/wop-cli/wop/internal/invocation"
	"github.com/wop-cli/wop/internal/registry"
)

// TestExitError: each of Run's failures exits with its code; a conflict
// gets the caller's hint.
func TestExitError(t *testing.T) {
	ctx := context.Background()
	hinted := errors.New("bump the version")
	conflict := func(*ConflictError) error { return hinted }
	for _, tt := range []struct {
		name string
		err  error
		want int
	}{
		{"no write API", &NoWriteAPIError{Registry: "r"}, exitcode.Findings},
		{"no credentials", &NoCredentialsError{Registry: "r"}, exitcode.Auth},
		{"conflict", &ConflictError{}, exitcode.Conflict},
		{"upload refused", &UploadError{Err: &registry.StatusError{StatusCode: 403}}, exitcode.Auth},
		{"upload conflict", &UploadError{Err: &registry.StatusError{StatusCode: 409}}, exitcode.Conflict},
		{"upload 503", &UploadError{Err: &registry.StatusError{StatusCode: 503}}, exitcode.Network},
		{"upload 400", &UploadError{Err: &registry.StatusError{StatusCode: 400}}, exitcode.Findings},
	} {
		err := ExitError(ctx, tt.err, "", conflict)
		got := exitcode.Findings
		var xe *exitcode.Error
		if errors.As(err, &xe) {
			got = xe.Code
		}
		if got != tt.want {
			t.Errorf("%s: %v exits %d, want %d", tt.name, err, got, tt.want)
		}
	}
	if err := ExitError(ctx, &ConflictError{}, "", conflict); !errors.Is(err, hinted) {
		t.Errorf("conflict: %v, want the caller's error", err)
	}
	var h exitcode.Hinter
	if err := ExitError(ctx, &NoWriteAPIError{Registry: "r"}, "", conflict); !errors.As(err, &h) || h.Hint() == "" {
		t.Errorf("no write API: %v has no hint", err)
	}
}

// TestConflictHint: the hint points at what the user has.
func TestConflictHint(t *testing.T) {
	dir := t.TempDir()
	kept := filepath.Join(dir, "acme.tools-1.0.0.tgz")
	if err := os.WriteFile(kept, []byte("tgz"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		c    Conflict
		want string
	}{
		{"archive named", Conflict{Target: "a.tgz"}, "versions are immutable: bump the version; 'wop pack verify a.tgz --source DIR'"},
		{"build kept", Conflict{Target: "src", Built: true, Local: kept, LocalShown: "dist/x.tgz"}, "bump the version in " + filepath.Join("src", "pack.json") + ". dist/x.tgz was left as it was: if it is the published archive, 'wop pack verify dist/x.tgz --source src'"},
		{"nothing local", Conflict{Target: "src", Built: true, Local: filepath.Join(dir, "none.tgz"), TarballURL: "https://r.example/x.tgz"}, "download https://r.example/x.tgz and run 'wop pack verify FILE --source src'"},
	} {
		var h exitcode.Hinter
		if err := tt.c.Hint(&ConflictError{}); !errors.As(err, &h) || !strings.Contains(h.Hint(), tt.want) {
			t.Errorf("%s: hint %v; want it to contain %q", tt.name, err, tt.want)
		}
	}
}

// TestHintsNameInvoked: the conflict and missing-token hints name the
// command that started wop ("npx wop pack verify ..."), plain wop without.
func TestHintsNameInvoked(t *testing.T) {
	hint := func(err error) string {
		var h interface{ Hint() string }
		if !errors.As(err, &h) {
			t.Fatalf("no hint: %v", err)
		}
		return h.Hint()
	}
	dir := t.TempDir()
	local := filepath.Join(dir, "a-1.0.0.tgz")
	if err := os.WriteFile(local, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, invoked := range []invocation.Name{"", "npx wop"} {
		w := invoked.String()
		for _, tt := range []struct {
			c    Conflict
			want string
		}{
			{Conflict{Target: "a.tgz", Invoked: invoked}, "'" + w + " pack verify a.tgz --source DIR'"},
			{Conflict{Target: "src", Built: true, Local: local, LocalShown: "a-1.0.0.tgz", Invoked: invoked}, "'" + w + " pack verify a-1.0.0.tgz --source src'"},
			{Conflict{Target: "src", Built: true, Local: filepath.Join(dir, "none"), TarballURL: "https://r/a.tgz", Invoked: invoked}, "'" + w + " pack verify FILE --source src'"},
		} {
			if h := hint(tt.c.Hint(&ConflictError{})); !strings.Contains(h, tt.want) {
				t.Errorf("%q: hint %q, want %q in it", invoked, h, tt.want)
			}
		}
		if h := (&ConflictError{Invoked: invoked}).Hint(); !strings.Contains(h, "'"+w+" pack verify --source'") {
			t.Errorf("%q: ConflictError hint %q", invoked, h)
		}
		err := ExitError(context.Background(), &NoCredentialsError{Registry: "r"}, invoked, nil)
		if h := hint(err); !strings.Contains(h, "'"+w+" login --registry URL'") {
			t.Errorf("%q: no-credentials hint %q", invoked, h)
		}
	}
}
