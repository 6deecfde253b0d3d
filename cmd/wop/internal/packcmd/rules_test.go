package packcmd

import (
	"bytes"
	"strings"
	"testing"

	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/lint"
)

func TestExplain(t *testing.T) {
	rules := append(lint.All(), &lint.Rule{ID: "ref-absent", Severity: diag.Error, Since: "0.1.0", Summary: "a file ref names a missing file",
		Deprecated: "renamed in 0.2.0", ReplacedBy: "ref-missing"})
	tests := []struct{ id, want string }{
		{"agf-path-unavailable", "agf-path-unavailable (error)\na path reads the output of a later step, of itself or of a parallel sibling\nSince wop 0.1.0.\n"},
		{"ref-absent", "ref-absent (deprecated)\nDEPRECATED, use ref-missing: a file ref names a missing file\n\nrenamed in 0.2.0\n"},
	}
	for _, tt := range tests {
		if got := explainOf(t, rules, tt.id); !strings.HasPrefix(got, tt.want) {
			t.Errorf("explain %s:\n%s\nwant it to start with:\n%s", tt.id, got, tt.want)
		}
	}
	// An enforced rule says that .wop.yaml cannot hide it at build or publish (and not how to switch it off); others do not.
	if !strings.Contains(explainOf(t, rules, "manifest-schema"), "\nEnforced: it must never reach a registry. `rules: {manifest-schema: off}`, a lower\nseverity or an ignore in .wop.yaml hold for `wop pack lint` only") {
		t.Error("explain manifest-schema does not say it is enforced")
	}
	if strings.Contains(explainOf(t, rules, "manifest-schema"), "Switch it off") {
		t.Error("explain manifest-schema says how to switch it off, then that it cannot be")
	}
	if strings.Contains(explainOf(t, rules, "license-not-spdx"), "Enforced") {
		t.Error("explain license-not-spdx says it is enforced")
	}
	if !strings.Contains(explainOf(t, rules, "agf-path-unavailable"), "\nBad:\n  -- team.agf.yaml --\n") {
		t.Error("explain agf-path-unavailable shows no bad example")
	}
	wasm := explainOf(t, rules, "runtime-entry-not-wasm")
	if !strings.Contains(wasm, "  -- module.wasm --\n  (9 bytes of binary data: 00 61 73 6d 01 00 00 00 0a)\n") || strings.ContainsRune(wasm, 0) {
		t.Errorf("explain runtime-entry-not-wasm prints the fixed example's WASM module raw:\n%q", wasm)
	}
	if err := explain(&cli.Env{Out: &bytes.Buffer{}}, rules, "nope"); err == nil {
		t.Error("explain of an unknown rule succeeded")
	}
}

func explainOf(t *testing.T, rules lint.Rules, id string) string {
	var out bytes.Buffer
	if err := explain(&cli.Env{Out: &out}, rules, id); err != nil {
		t.Fatal(err)
	}
	return out.String()
}
