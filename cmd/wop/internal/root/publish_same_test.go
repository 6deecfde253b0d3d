package root

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wop-cli/wop/cmd/wop/internal/cli"
)

// regzip recompresses a .tgz as another gzip would (level 1, a name in the
// header): the same tar, other bytes, another integrity.
func regzip(t *testing.T, tgz []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(tgz))
	if err != nil {
		t.Fatal(err)
	}
	tar, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&out, gzip.BestSpeed)
	zw.Name = "pack.tar"
	zw.Write(tar)
	zw.Close()
	if bytes.Equal(out.Bytes(), tgz) {
		t.Fatal("regzip made the same bytes")
	}
	return out.Bytes()
}

// TestPublishSameTarOtherGzip: the registry holds this version built by
// another gzip (same tar, other integrity): already published, not a
// conflict; a different tar is still a conflict.
func TestPublishSameTarOtherGzip(t *testing.T) {
	dir, srv, publish := publishEnv(t)
	ours, err := os.ReadFile(filepath.Join(dir, "out", "community.acme.demo-1.0.0.tgz"))
	if err != nil {
		t.Fatal(err)
	}
	srv.Publish("community.acme.demo", "1.0.0", regzip(t, ours))
	if code, errOut := publish(); code != cli.ExitOK {
		t.Fatalf("same tar, other gzip: exit %d: %s", code, errOut)
	}
	if got := srv.Puts(); got != 0 {
		t.Errorf("%d PUTs for an already published version", got)
	}
	zr, _ := gzip.NewReader(bytes.NewReader(ours))
	tar, _ := io.ReadAll(zr)
	tar[len(tar)-1] = 1 // one byte of the tar changed
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(tar)
	zw.Close()
	srv.Publish("community.acme.demo", "1.0.0", buf.Bytes())
	if code, errOut := publish(); code != cli.ExitConflict || !strings.Contains(errOut, "other bytes") {
		t.Errorf("other tar: exit %d: %s", code, errOut)
	}
}
