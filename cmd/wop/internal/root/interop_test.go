package root

import (
	"crypto/sha256"
	"os"
	"path/filepath"
	"testing"

	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/build"
)

// TestPublishSameContentLine: a registry holding this version as another
// gzip of the same tar has the same content, not the same bytes; the line
// says so.
func TestPublishSameContentLine(t *testing.T) {
	dir, srv, _ := publishEnv(t)
	ours, err := os.ReadFile(filepath.Join(dir, archive))
	if err != nil {
		t.Fatal(err)
	}
	srv.Publish("community.acme.demo", "1.0.0", regzip(t, ours))
	code, out, errOut := publishWith(t, dir, tokenEnv(), "--registry", srv.URL)
	if code != cli.ExitOK {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	want := "community.acme.demo@1.0.0 is already published at " + srv.URL + " with the same content (" + integrityOf(ours) + "); nothing to do\n"
	if out != want {
		t.Errorf("got  %q\nwant %q", out, want)
	}
}

func integrityOf(data []byte) string {
	sum := sha256.Sum256(data)
	return build.IntegrityOf(sum[:]).SRI
}
