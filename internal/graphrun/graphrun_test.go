package graphrun

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wop-cli/wop/internal/graphviz/engine"
	"github.com/wop-cli/wop/internal/lint"
	"github.com/wop-cli/wop/internal/lintrun"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/report"
	"github.com/wop-cli/wop/internal/tarball"
)

// TestMain lets the test binary act as the wop-graphviz helper, so the
// svg format runs end to end without building the helper.
func TestMain(m *testing.M) {
	if os.Getenv("WOP_GRAPHRUN_TEST_HELPER") == "1" {
		engine.Main("test")
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func testEnv(t testing.TB, vars map[string]string) *lintrun.Env {
	return &lintrun.Env{WorkDir: t.TempDir(), Getenv: func(k string) string { return vars[k] }, Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{},
		Version: "test", Now: time.Now}
}

func abs(t *testing.T, p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// finding is what both reports say of a chain finding.
type finding struct{ Rule, Pointer, Message string }

// locatedFinding is a lint diagnostic with the file it is in.
type locatedFinding struct{ File, Rule, Pointer, Message string }

// TestJSONFindingsAreLints: for every example pack, and for a checkout
// whose chains have findings of several rules, the findings of `wop pack
// graph --format json` are exactly the chain findings of `wop pack lint
// --format json`: one analysis, two readers.
func TestJSONFindingsAreLints(t *testing.T) {
	examples, err := filepath.Glob(abs(t, "../../examples/*"))
	if err != nil || len(examples) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	cases := map[string]Options{
		"examples":  {Paths: examples},
		"checkout":  {Paths: []string{abs(t, "testdata/reg/packs/community.acme.chains")}, Catalogs: []string{abs(t, "testdata/reg/packs")}},
		"no-config": {Paths: []string{abs(t, "testdata/reg/packs/community.acme.chains")}},
	}
	for name, o := range cases {
		t.Run(name, func(t *testing.T) {
			env := testEnv(t, nil)
			o.Format = "json"
			var fromGraph []finding
			for _, p := range o.Paths {
				o := o
				o.Paths = []string{p}
				out, err := Run(t.Context(), env, o)
				if err != nil && !strings.Contains(err.Error(), "no workflow chains") {
					t.Fatal(err)
				}
				if err != nil {
					continue
				}
				fromGraph = append(fromGraph, chartFindings(t, out)...)
			}
			var fromLint []finding
			for _, d := range lintFindings(t, env, o.Paths, o.Catalogs) {
				if strings.HasPrefix(d.Rule, "chain-") {
					fromLint = append(fromLint, finding{d.Rule, d.Pointer, d.Message})
				}
			}
			sortFindings(fromGraph)
			sortFindings(fromLint)
			if !slices.Equal(fromGraph, fromLint) {
				t.Errorf("graph's findings:\n%v\nlint's:\n%v", fromGraph, fromLint)
			}
			if name == "checkout" && len(fromLint) < 4 {
				t.Errorf("the checkout case has %d chain findings, want its unbound inputs, foreign title and edge type conflict", len(fromLint))
			}
		})
	}
}

func sortFindings(fs []finding) {
	slices.SortFunc(fs, func(a, b finding) int {
		return strings.Compare(a.Pointer+a.Rule+a.Message, b.Pointer+b.Rule+b.Message)
	})
}

func TestSVGThroughHelper(t *testing.T) {
	t.Setenv("WOP_GRAPHRUN_TEST_HELPER", "1")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	env := testEnv(t, map[string]string{"WOP_GRAPHVIZ_HELPER": exe})
	env.CacheDir = t.TempDir()
	out, err := Run(t.Context(), env, Options{Paths: []string{abs(t, "testdata/reg/packs/community.acme.chains")}, Catalogs: []string{abs(t, "testdata/reg/packs")}, Format: "svg"})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(out, []byte("<?xml")) || !bytes.Contains(out, []byte("deviceToken ← UNBOUND")) {
		t.Errorf("svg:\n%s", out)
	}
}

func TestMissingHelper(t *testing.T) {
	env := testEnv(t, map[string]string{"PATH": ""})
	t.Setenv("PATH", "")
	_, err := Run(t.Context(), env, Options{Paths: []string{abs(t, "testdata/reg/packs/community.acme.chains")}, Format: "svg"})
	if err == nil || !strings.Contains(err.Error(), "wop-graphviz helper") || !strings.Contains(err.Error(), "need no helper") {
		t.Errorf("err = %v", err)
	}
}

func TestChainFlag(t *testing.T) {
	env := testEnv(t, nil)
	o := Options{Paths: []string{abs(t, "testdata/reg/packs/community.acme.chains")}, Format: "mermaid", Chain: "acme.refund"}
	_, err := Run(t.Context(), env, o)
	if err == nil || !strings.Contains(err.Error(), "did you mean acme.refunds?") {
		t.Errorf("err = %v", err)
	}
	o.Chain = "acme.refunds"
	out, err := Run(t.Context(), env, o)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(string(out), "flowchart TD") != 1 || !strings.Contains(string(out), "acme.refunds") {
		t.Errorf("mermaid:\n%s", out)
	}
	_, err = Run(t.Context(), env, Options{Paths: []string{abs(t, "testdata/reg/packs/community.acme.tools")}, Format: "text"})
	if err == nil || !strings.Contains(err.Error(), "no workflow chains") {
		t.Errorf("a pack without chains: err = %v", err)
	}
}

// TestAgainst: the previous release's chain is matched by chainId and its
// differences marked: a node and an edge added, an input now bound.
func TestAgainst(t *testing.T) {
	cur := abs(t, "testdata/reg/packs/community.acme.chains")
	prevDir := t.TempDir()
	raw, err := os.ReadFile(filepath.Join(cur, "pack.json"))
	if err != nil {
		t.Fatal(err)
	}
	old := strings.Replace(string(raw), `,
        {"id": "tally", "typeId": "community.acme.tools.count", "inputs": {}}`, "", 1)
	old = strings.Replace(old, `
        {"from": "summarize", "to": "tally"},
        {"from": "tally.count", "to": "notify.title"},`, "", 1)
	if old == string(raw) {
		t.Fatal("fixture changed: the test's edits no longer apply")
	}
	if err := os.WriteFile(filepath.Join(prevDir, "pack.json"), []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	o := Options{Paths: []string{cur}, Catalogs: []string{abs(t, "testdata/reg/packs")}, Chain: "acme.refunds", Format: "json", Against: prevDir,
		Previous: func(_ context.Context, ref, _ string, lim tarball.Limits) (*pack.Pack, func(), error) {
			pk, err := pack.Load(ref, lim)
			return pk, func() {}, err
		}}
	charts, err := Charts(t.Context(), testEnv(t, nil), o)
	if err != nil {
		t.Fatal(err)
	}
	ch := charts[0].Changes
	if ch.Nodes["tally"] != "added" || ch.Edges["tally.count -> notify.title"] != "added" || ch.Nodes["notify"] != "changed" || ch.Inputs["notify"]["title"] != "changed" {
		t.Errorf("changes: %+v", ch)
	}
}

// TestAnalyzeManifestBadJSON: a buffer that does not parse (the editor's
// panel, mid-typing) gets lint's json-invalid finding word for word:
// file:line:col, not a byte offset.
func TestAnalyzeManifestBadJSON(t *testing.T) {
	_, _, err := AnalyzeManifest([]byte("{\n  \"name\": \"community.acme.x\",,\n}\n"), "pack.json", lint.Options{})
	if err == nil || !strings.HasPrefix(err.Error(), "pack.json:2:30: error json-invalid: invalid JSON: two commas") || strings.Contains(err.Error(), "offset") {
		t.Errorf("AnalyzeManifest: %v, want pack.json:2:30 (the second comma): error json-invalid: invalid JSON: two commas ...", err)
	}
}

// chartFindings reads the chain findings the charts of `wop pack graph
// --format json` output carry.
func chartFindings(t *testing.T, out []byte) []finding {
	t.Helper()
	var doc struct {
		Charts []struct {
			Chain struct {
				Findings []finding `json:"findings"`
			} `json:"chain"`
		} `json:"charts"`
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	var fs []finding
	for _, c := range doc.Charts {
		fs = append(fs, c.Chain.Findings...)
	}
	return fs
}

// lintFindings runs `wop pack lint --format json` on paths and reads back
// its diagnostics.
func lintFindings(t *testing.T, env *lintrun.Env, paths, catalogs []string) []locatedFinding {
	t.Helper()
	res, err := lintrun.Run(t.Context(), env, lintrun.Options{Paths: paths, Catalogs: catalogs, NoCache: true, Info: true})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := report.Print(&buf, "json", report.Input{Tool: "wop", Diags: res.Diags}); err != nil {
		t.Fatal(err)
	}
	var doc struct{ Diagnostics []locatedFinding }
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Diagnostics
}
