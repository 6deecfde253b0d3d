package graphrun

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/chaindraw"
	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/lintrun"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/release"
	"github.com/wop-cli/wop/internal/tarball"
	"github.com/wop-cli/wop/internal/testutil/golden"
)

// routePack is a chain pack in the registry's shape: a draft, an approval
// gate and two routes out of it. edit changes the decoded manifest.
func routePack(t *testing.T, dir string, edit func(m map[string]any)) {
	t.Helper()
	chain := map[string]any{"chainId": "acme.route", "version": "1.0.0", "label": "Route", "description": "Send only what was approved.",
		"parameters": map[string]any{"type": "object"},
		"dag": map[string]any{
			"nodes": []any{
				map[string]any{"id": "draft", "typeId": "core.openwop.llm.complete", "inputs": map[string]any{}},
				map[string]any{"id": "approve", "typeId": "core.openwop.flow.approval", "inputs": map[string]any{}},
				map[string]any{"id": "send", "typeId": "core.openwop.email.send", "inputs": map[string]any{}},
				map[string]any{"id": "fail", "typeId": "core.openwop.flow.fail", "inputs": map[string]any{}},
			},
			"edges": []any{
				map[string]any{"from": "draft", "to": "approve"},
				map[string]any{"from": "approve", "to": "send"},
				map[string]any{"from": "approve", "to": "fail"},
			},
		}}
	m := map[string]any{"name": "community.acme.route", "version": "1.0.0", "kind": "workflow-chain", "description": "Route a draft through approval.",
		"license": "Apache-2.0", "engines": map[string]any{"openwop": ">=1.1.0"}, "chains": []any{chain}}
	edit(m)
	raw, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "pack.json"), append(raw, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

func routeChain(m map[string]any) map[string]any { return m["chains"].([]any)[0].(map[string]any) }

func routeEdges(m map[string]any) []any {
	return routeChain(m)["dag"].(map[string]any)["edges"].([]any)
}

// summaryEnv is GitHub Actions' environment for a pull request whose head
// is headSHA (GITHUB_SHA is the merge commit GitHub makes for it).
func summaryEnv(t *testing.T) (*lintrun.Env, string) {
	t.Helper()
	ws := t.TempDir()
	event := filepath.Join(t.TempDir(), "event.json")
	if err := os.WriteFile(event, []byte(`{"action": "synchronize", "pull_request": {"number": 7, "head": {"sha": "`+headSHA40+`"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "summary.md")
	vars := map[string]string{"GITHUB_STEP_SUMMARY": out, "GITHUB_SERVER_URL": "https://github.com", "GITHUB_REPOSITORY": "acme/packs",
		"GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": event, "GITHUB_SHA": strings.Repeat("e", 40), "GITHUB_WORKSPACE": ws}
	env := testEnv(t, vars)
	env.WorkDir = ws
	return env, out
}

const headSHA40 = "0123456789abcdef0123456789abcdef01234567"

func lintFor(t *testing.T, env *lintrun.Env, o lintrun.Options) []diag.Diagnostic {
	t.Helper()
	res, err := lintrun.Run(t.Context(), env, o)
	if err != nil {
		t.Fatal(err)
	}
	return res.Diags
}

// TestStepSummaryNonChainError: a pull request whose only error is no
// chain rule's still gets a summary: a table with severity, rule and a
// file:line link into the pull request's head, and no chain drawn.
func TestStepSummaryNonChainError(t *testing.T) {
	env, out := summaryEnv(t)
	routePack(t, filepath.Join(env.WorkDir, "packs/community.acme.route"), func(m map[string]any) { delete(routeChain(m), "parameters") })
	o := lintrun.Options{Paths: []string{"packs/community.acme.route"}, NoCache: true}
	r := SummaryRequest{Format: "github", Lint: o, Diags: lintFor(t, env, o)}
	if err := AppendSummary(t.Context(), env, r); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	golden.Assert(t, "summary-non-chain-error.md", got)
	if !bytes.Contains(got, []byte("](https://github.com/acme/packs/blob/"+headSHA40+"/packs/community.acme.route/pack.json#L")) {
		t.Error("no link to the pull request's head")
	}
}

// TestStepSummaryConditionsChanged: under --against, a pull request that
// changes a chain's edge conditions draws that chain, and lists the
// findings the previous release has too apart from the new ones.
func TestStepSummaryConditionsChanged(t *testing.T) {
	env, out := summaryEnv(t)
	prev := filepath.Join(t.TempDir(), "prev")
	routePack(t, prev, func(map[string]any) {})
	routePack(t, filepath.Join(env.WorkDir, "packs/community.acme.route"), func(m map[string]any) {
		m["version"], m["license"] = "1.1.0", "Apache 2" // a new finding; the unbounded engines range is an old one
		routeChain(m)["version"] = "1.1.0"
		edges := routeEdges(m)
		edges[1].(map[string]any)["condition"] = map[string]any{"type": "truthy", "left": "approved"}
		edges[2].(map[string]any)["condition"] = map[string]any{"type": "falsy", "left": "approved"}
		edges[2].(map[string]any)["triggerRule"] = "none_failed"
	})
	o := lintrun.Options{Paths: []string{"packs/community.acme.route"}, NoCache: true}
	loads, cleanups := 0, 0
	r := SummaryRequest{Format: "github", Lint: o, Diags: lintFor(t, env, o), Against: "git:main",
		Previous: func(_ context.Context, ref, _ string, lim tarball.Limits) (*pack.Pack, func(), error) {
			if ref != "git:main" {
				t.Errorf("previous release %q, want git:main", ref)
			}
			loads++
			pk, err := pack.Load(prev, lim)
			return pk, func() { cleanups++ }, err
		}}
	if err := AppendSummary(t.Context(), env, r); err != nil {
		t.Fatal(err)
	}
	if loads != 1 || cleanups != 1 { // the drawings and the old findings share one load
		t.Errorf("the previous release loaded %d times and cleaned up %d times, want once each", loads, cleanups)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	// Once the chain analysis carries edge conditions and the diff compares
	// them, the golden file shows acme.route drawn as changed: refresh it
	// with -update and read the diff.
	golden.Assert(t, "summary-conditions-changed.md", got)
	fresh, old, _ := strings.Cut(string(got), "<details>")
	if !strings.Contains(fresh, "license-not-spdx") || strings.Contains(fresh, "engines-range-unbounded") || !strings.Contains(old, "engines-range-unbounded") {
		t.Errorf("new and old findings not apart:\n%s", got)
	}
}

// TestStepSummaryBounded: thousands of findings stay within the bound,
// and the rows left out are counted.
func TestStepSummaryBounded(t *testing.T) {
	var ds []diag.Diagnostic
	for i := range 5000 {
		ds = append(ds, diag.Diagnostic{Rule: "manifest-schema", Severity: diag.Error, File: "packs/a/pack.json", Start: diag.Position{Line: i + 1},
			Message: strings.Repeat("a long message | with `code` and <html> ", 20)})
	}
	for _, against := range []string{"", "git:main"} {
		got := chaindraw.StepSummary(chaindraw.SummaryInput{Findings: ds, Against: against})
		if len(got) > chaindraw.SummaryMax || !bytes.Contains(got, []byte("more findings not shown")) {
			t.Errorf("against %q: %d bytes, %v", against, len(got), bytes.Contains(got, []byte("more findings not shown")))
		}
		if rows := bytes.Count(got, []byte("\n| error |")); rows > chaindraw.SummaryRows {
			t.Errorf("against %q: %d rows", against, rows)
		}
	}
	// Fewer rows than SummaryRows, each long: the table's byte bound
	// stops it (half the summary, a quarter under --against).
	long := make([]diag.Diagnostic, 100)
	for i := range long {
		long[i] = diag.Diagnostic{Rule: "manifest-schema", Severity: diag.Error, File: "packs/a/pack.json", Message: strings.Repeat("m", 5000)}
	}
	for against, bound := range map[string]int{"": chaindraw.SummaryMax / 2, "git:main": chaindraw.SummaryMax / 4} {
		got := chaindraw.StepSummary(chaindraw.SummaryInput{Findings: long, Against: against})
		if len(got) > bound+1024 || !bytes.Contains(got, []byte("more findings not shown")) {
			t.Errorf("against %q: %d bytes for a table bounded by %d", against, len(got), bound)
		}
	}
}

// TestSummaryLinks: links are made only from a full commit id and a
// GitHub URL, to files inside the checkout that exist.
func TestSummaryLinks(t *testing.T) {
	ws := filepath.Join(t.TempDir(), "ws")
	if err := os.MkdirAll(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{filepath.Join(ws, "pack (1).json"), filepath.Join(ws, "..", "x.json")} { // x.json: on disk, outside the checkout
		if err := os.WriteFile(f, []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	base := map[string]string{"GITHUB_SERVER_URL": "https://github.example", "GITHUB_REPOSITORY": "o/r", "GITHUB_SHA": headSHA40, "GITHUB_WORKSPACE": ws}
	for _, tc := range []struct {
		name string
		set  map[string]string
		file string
		want string
	}{
		{"push", nil, "pack (1).json", "https://github.example/o/r/blob/" + headSHA40 + "/pack%20%281%29.json#L3"},
		{"missing file", nil, "gone.json", ""},
		{"outside the checkout", nil, "../x.json", ""},
		{"no sha", map[string]string{"GITHUB_SHA": ""}, "pack (1).json", ""},
		{"sha with markdown", map[string]string{"GITHUB_SHA": headSHA40[:39] + ")"}, "pack (1).json", ""},
		{"no repository", map[string]string{"GITHUB_REPOSITORY": ""}, "pack (1).json", ""},
		{"server not http", map[string]string{"GITHUB_SERVER_URL": "javascript:x"}, "pack (1).json", ""},
		{"server not http with a host", map[string]string{"GITHUB_SERVER_URL": "ftp://github.example"}, "pack (1).json", ""},
		{"repository not owner/name", map[string]string{"GITHUB_REPOSITORY": "o/r/x"}, "pack (1).json", ""},
		{"event without a pull request", map[string]string{"GITHUB_EVENT_PATH": filepath.Join(ws, "pack (1).json")}, "pack (1).json",
			"https://github.example/o/r/blob/" + headSHA40 + "/pack%20%281%29.json#L3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			vars := map[string]string{}
			for k, v := range base {
				vars[k] = v
			}
			for k, v := range tc.set {
				vars[k] = v
			}
			env := testEnv(t, vars)
			env.WorkDir = ws
			if got := newLinker(env).url(tc.file, 3); got != tc.want {
				t.Errorf("url = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestStepSummaryDrawsChainsWithFindings: only a chain with a chain
// finding of the run is drawn, also when --against finds no previous
// release (a first release: nothing changed); a format other than github
// writes no summary.
func TestStepSummaryDrawsChainsWithFindings(t *testing.T) {
	env, out := summaryEnv(t)
	routePack(t, filepath.Join(env.WorkDir, "packs/community.acme.route"), func(m map[string]any) {
		clean := map[string]any{"chainId": "acme.clean", "version": "1.0.0", "label": "Clean", "description": "Nothing to say.",
			"parameters": map[string]any{"type": "object"},
			"dag":        map[string]any{"nodes": []any{map[string]any{"id": "only", "typeId": "core.openwop.llm.complete", "inputs": map[string]any{}}}, "edges": []any{}}}
		m["chains"] = append(m["chains"].([]any), clean)
		routeChain(m)["dag"].(map[string]any)["edges"] = append(routeEdges(m), map[string]any{"from": "send", "to": "ghost"})
	})
	o := lintrun.Options{Paths: []string{"packs/community.acme.route"}, NoCache: true}
	diags := lintFor(t, env, o)
	if err := AppendSummary(t.Context(), env, SummaryRequest{Format: "text", Lint: o, Diags: diags}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Fatalf("--format text wrote a step summary (%v)", err)
	}
	first := func(context.Context, string, string, tarball.Limits) (*pack.Pack, func(), error) {
		return nil, nil, release.ErrNoPrevious
	}
	for _, r := range []SummaryRequest{{Format: "github", Lint: o, Diags: diags}, {Format: "github", Lint: o, Diags: diags, Against: "git:main", Previous: first}} {
		if err := os.RemoveAll(out); err != nil {
			t.Fatal(err)
		}
		if err := AppendSummary(t.Context(), env, r); err != nil {
			t.Fatalf("against %q: %v", r.Against, err)
		}
		got, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(got, []byte("acme.route (Route)")) || bytes.Contains(got, []byte("acme.clean")) {
			t.Errorf("against %q: want acme.route drawn (its dangling edge) and acme.clean not:\n%s", r.Against, got)
		}
	}
}

// TestOldFindingsOneForOne: a finding of the previous release marks one
// finding of the run old, not every one alike (as a baseline absorbs).
func TestOldFindingsOneForOne(t *testing.T) {
	env, _ := summaryEnv(t)
	prev := filepath.Join(t.TempDir(), "prev")
	routePack(t, prev, func(map[string]any) {})
	routePack(t, filepath.Join(env.WorkDir, "packs/community.acme.route"), func(map[string]any) {})
	o := lintrun.Options{Paths: []string{"packs/community.acme.route"}, NoCache: true}
	var twice []diag.Diagnostic
	for _, d := range lintFor(t, env, o) {
		if d.Rule == "engines-range-unbounded" {
			twice = append(twice, d, d)
		}
	}
	if len(twice) != 2 {
		t.Fatalf("want one engines-range-unbounded finding, have %d", len(twice)/2)
	}
	r := SummaryRequest{Format: "github", Lint: o, Diags: twice, Against: "git:main",
		Previous: func(_ context.Context, _, _ string, lim tarball.Limits) (*pack.Pack, func(), error) {
			pk, err := pack.Load(prev, lim)
			return pk, nil, err
		}}
	old, err := oldFindings(t.Context(), env, r)
	if err != nil {
		t.Fatal(err)
	}
	if len(old) != 2 || !old[0] || old[1] {
		t.Errorf("old = %v, want [true false]", old)
	}
}
