package publishrun

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/lintrun"
)

// TestProgressPassesBytesThrough: the progress bar wraps the upload body
// without changing it, and draws on ErrOut.
func TestProgressPassesBytesThrough(t *testing.T) {
	var errOut bytes.Buffer
	o := &run{Request: Request{Env: &lintrun.Env{ErrOut: &errOut}}}
	body := strings.Repeat("x", 5<<20)
	got, err := io.ReadAll(o.progress(strings.NewReader(body), int64(len(body))))
	if err != nil || string(got) != body {
		t.Fatalf("body changed: %d bytes, %v", len(got), err)
	}
	if !strings.Contains(errOut.String(), "uploading") {
		t.Errorf("no progress drawn: %q", errOut.String())
	}
}
