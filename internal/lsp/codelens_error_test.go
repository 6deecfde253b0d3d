package lsp

import (
	"strconv"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// TestChainGraphSVGInvalidJSON: a buffer that is not JSON (mid-typing)
// gets the chain panel lint's finding word for word (json-invalid, the
// file as lint names it, line:col), where it used to say Go's wording
// with an absolute path and "(wop pack lint says more)".
func TestChainGraphSVGInvalidJSON(t *testing.T) {
	ctx, c, root, _ := lensSession(t)
	manifest, text := chainsManifest(t, root)
	i := strings.Index(string(text), "[")
	if i < 0 {
		t.Fatal("the manifest has no array to break")
	}
	buffer := string(text[:i+1]) + `"a" "b" ` + string(text[i+1:])
	if err := c.Open(ctx, manifest, buffer); err != nil {
		t.Fatal(err)
	}
	var got struct{ SVG, Title string }
	err := c.Call(ctx, protocol.MethodWorkspaceExecuteCommand, &protocol.ExecuteCommandParams{Command: chainSVGCommand, Arguments: []any{string(uri.File(manifest)), "/chains/1"}}, &got)
	if err == nil {
		t.Fatal("no error for a buffer that is not JSON")
	}
	line := strings.Count(buffer[:i], "\n") + 1
	t.Logf("the panel says: %v", err)
	want := "reg/packs/community.acme.chains/pack.json:" + strconv.Itoa(line) + ":17: error json-invalid: invalid JSON: missing \",\" after this value, before the next item; add the comma; pack files must be strict RFC 8259 JSON"
	if msg := err.Error(); !strings.HasPrefix(msg, want) {
		t.Errorf("the panel's error:\n%s\nwant lint's finding:\n%s...", msg, want)
	}
}
