package packcmd

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/registry"
)

// TestProgressPassesBytesThrough: the progress bar wraps the upload body
// without changing it, and draws on ErrOut.
func TestProgressPassesBytesThrough(t *testing.T) {
	var errOut bytes.Buffer
	o := &publishOptions{env: &cli.Env{ErrOut: &errOut}}
	body := strings.Repeat("x", 5<<20)
	got, err := io.ReadAll(o.progress(strings.NewReader(body), int64(len(body))))
	if err != nil || string(got) != body {
		t.Fatalf("body changed: %d bytes, %v", len(got), err)
	}
	if !strings.Contains(errOut.String(), "uploading") {
		t.Errorf("no progress drawn: %q", errOut.String())
	}
}

// TestUnreadableDiscoveryIsUsage: a discovery document wop cannot read is
// unreadable input (exit 2, as the exit table says), not a network failure.
func TestUnreadableDiscoveryIsUsage(t *testing.T) {
	err := networkError(context.Background(), fmt.Errorf("GET https://r.test/.well-known/openwop-registry.json: %w: discovery document over 4194304 bytes", registry.ErrUnreadable))
	var usage *cli.UsageError
	if !errors.As(err, &usage) {
		t.Errorf("%v (%T), want a usage error", err, err)
	}
}
