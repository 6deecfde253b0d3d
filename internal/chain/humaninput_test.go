package chain_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/wop-cli/wop/internal/catalog"
	"github.com/wop-cli/wop/internal/chain"
	"github.com/wop-cli/wop/internal/jsonpos"
)

// TestHumanInputIsGate: a node type whose declared role is human-input
// asks a person before the run goes on, so it is a gate whatever its
// typeId says: "acme.people.ask" names no approval. The side effect after
// it is gated. The look-alike, the same typeId declared pure, is no gate.
func TestHumanInputIsGate(t *testing.T) {
	for _, tc := range []struct {
		role     string
		wantGate bool
	}{
		{"human-input", true},
		{"pure", false},
	} {
		t.Run(tc.role, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "acme.people")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			manifest := `{"name": "acme.people", "version": "1.0.0", "nodes": [
  {"typeId": "acme.people.ask", "version": "1.0.0", "role": "` + tc.role + `"},
  {"typeId": "acme.people.mail", "version": "1.0.0", "role": "side-effect"}]}`
			if err := os.WriteFile(filepath.Join(dir, "pack.json"), []byte(manifest), 0o644); err != nil {
				t.Fatal(err)
			}
			c, err := catalog.Open(t.Context(), filepath.Dir(dir), catalog.Options{})
			if err != nil {
				t.Fatal(err)
			}
			doc, err := jsonpos.Parse([]byte(`{"chains": [{"chainId": "c", "dag": {"nodes": [
  {"id": "ask", "typeId": "acme.people.ask"}, {"id": "mail", "typeId": "acme.people.mail"}],
  "edges": [{"from": "ask", "to": "mail"}]}}]}`))
			if err != nil {
				t.Fatal(err)
			}
			d := chain.Analyze(doc.Root, chain.Options{Catalog: c}).DAGs[0]
			if gate := d.Node("ask").Role == chain.RoleGate; gate != tc.wantGate {
				t.Errorf("ask: role %q, gate = %v, want %v", d.Node("ask").Role, gate, tc.wantGate)
			}
			ungated := slices.ContainsFunc(d.Findings, func(f chain.Finding) bool { return f.Rule == chain.RuleSideEffectUngated && f.Node == "mail" })
			if ungated == tc.wantGate {
				t.Errorf("mail reported ungated = %v with ask %s: %+v", ungated, tc.role, d.Findings)
			}
		})
	}
}
