package lsp

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/invocation"
	"github.com/wop-cli/wop/internal/lsp/lsptest"
)

// TestDiagnosticsNameInvoked: a finding's command line reads as the
// editor's wop was started ("npx wop pack build --key" when the extension
// found the workspace's npm install), plain wop otherwise.
func TestDiagnosticsNameInvoked(t *testing.T) {
	for _, invoked := range []invocation.Name{"", "npx wop"} {
		dir := copyExample(t)
		s := startWith(t, dir, func(s *Server) { s.env.Invoked = invoked })
		manifest := filepath.Join(dir, "pack.json")
		text := read(t, manifest)
		signed := strings.Replace(text, "{", `{"signing": {"method": "manual", "publicKeyRef": "acme-1", "signatureRef": "keys/pack.json.sig"},`, 1)
		if err := s.Open(s.ctx, manifest, signed); err != nil {
			t.Fatal(err)
		}
		p, err := s.Diagnostics(s.ctx, manifest, lsptest.AtVersion(1))
		if err != nil {
			t.Fatal(err)
		}
		d, ok := find(p.Diagnostics, "signing-in-source")
		if want := "delete it: " + invoked.Cmd("pack build --key") + " writes"; !ok || !strings.Contains(d.Message, want) {
			t.Errorf("%q: diagnostics %+v, want signing-in-source saying %q", invoked, p.Diagnostics, want)
		}
	}
}
