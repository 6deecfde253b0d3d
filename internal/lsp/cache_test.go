package lsp

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wop-cli/wop/internal/lintrun"
	"github.com/wop-cli/wop/internal/lsp/lsptest"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// at is a request's position in path's text at the first byte of what.
func at(t *testing.T, path, text, what string) protocol.TextDocumentPositionParams {
	t.Helper()
	i := strings.Index(text, what)
	if i < 0 {
		t.Fatalf("%q not in the text", what)
	}
	return protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(path)}, Position: positionOf([]byte(text), i)}
}

// TestRequestsDoNotWaitForARun: while a lint run is held, hover,
// completion and definition answer from the latest buffer (a member the
// run has not seen), and the run then publishes as usual.
func TestRequestsDoNotWaitForARun(t *testing.T) {
	dir := copyExample(t)
	var hold atomic.Bool
	entered, release := make(chan struct{}), make(chan struct{})
	s := startWith(t, dir, func(srv *Server) {
		srv.holdRun = func() {
			if hold.Load() {
				entered <- struct{}{}
				<-release
			}
		}
	})
	manifest := filepath.Join(dir, "pack.json")
	text := read(t, manifest)
	if err := s.Open(s.ctx, manifest, text); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Diagnostics(s.ctx, manifest, lsptest.AtVersion(1)); err != nil {
		t.Fatal(err)
	}
	hold.Store(true)
	edited := strings.Replace(text, `"license": "Apache-2.0",`, `"license": "Apache-2.0",
  "dependencies": {},`, 1)
	v, err := s.Change(s.ctx, manifest, lsptest.Edit{Text: edited})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-entered:
	case <-s.ctx.Done():
		t.Fatal("the run never started")
	}
	ctx, cancel := context.WithTimeout(s.ctx, 5*time.Second)
	defer cancel()
	var hover protocol.Hover
	if err := s.Call(ctx, protocol.MethodTextDocumentHover, &protocol.HoverParams{TextDocumentPositionParams: at(t, manifest, edited, `dependencies"`)}, &hover); err != nil {
		t.Fatalf("hover while a run is held: %v", err)
	}
	if !strings.Contains(hover.Contents.Value, "dependencies") {
		t.Errorf("hover = %q, want the new member's documentation", hover.Contents.Value)
	}
	var list protocol.CompletionList
	pos := at(t, manifest, edited, `Apache-2.0"`)
	if err := s.Call(ctx, protocol.MethodTextDocumentCompletion, &protocol.CompletionParams{TextDocumentPositionParams: pos}, &list); err != nil {
		t.Fatalf("completion while a run is held: %v", err)
	}
	if len(list.Items) == 0 {
		t.Error("completion in the license value: no items")
	}
	var locs []protocol.Location
	if err := s.Call(ctx, protocol.MethodTextDocumentDefinition, &protocol.DefinitionParams{TextDocumentPositionParams: at(t, manifest, edited, `schemas/uppercase.input.json"`)}, &locs); err != nil {
		t.Fatalf("definition while a run is held: %v", err)
	}
	if len(locs) != 1 || locs[0].URI != uri.File(filepath.Join(dir, "schemas", "uppercase.input.json")) {
		t.Errorf("definition = %+v, want the schema", locs)
	}
	hold.Store(false)
	close(release)
	if _, err := s.Diagnostics(s.ctx, manifest, lsptest.AtVersion(v)); err != nil {
		t.Fatal(err)
	}
}

// severityOfRule is the severity rule is published with, 0 when it is
// not published.
func severityOfRule(p protocol.PublishDiagnosticsParams, rule string) protocol.DiagnosticSeverity {
	if d, ok := find(p.Diagnostics, rule); ok {
		return d.Severity
	}
	return 0
}

// ruleAt waits until rule is published on path with severity sev (0: not
// published).
func ruleAt(t *testing.T, s *session, path, rule string, sev protocol.DiagnosticSeverity, why string) {
	t.Helper()
	if p, err := s.Diagnostics(s.ctx, path, func(p protocol.PublishDiagnosticsParams) bool { return severityOfRule(p, rule) == sev }); err != nil {
		t.Fatalf("%s: %s = %v, want severity %v: %v", why, rule, severityOfRule(p, rule), sev, err)
	}
}

// ignoreTarget is the .wop.yaml the "ignore" code action of rule's
// finding on path creates or edits; offered is false when there is none
// (a configuration above the pack applies).
func ignoreTarget(t *testing.T, s *session, path, rule string) (target protocol.DocumentURI, offered bool) {
	t.Helper()
	p, err := s.Diagnostics(s.ctx, path, func(p protocol.PublishDiagnosticsParams) bool { return severityOfRule(p, rule) != 0 })
	if err != nil {
		t.Fatal(err)
	}
	d, _ := find(p.Diagnostics, rule)
	var actions []codeAction
	if err := s.Call(s.ctx, protocol.MethodTextDocumentCodeAction, &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(path)},
		Range: d.Range, Context: protocol.CodeActionContext{Diagnostics: []protocol.Diagnostic{d}}}, &actions); err != nil {
		t.Fatal(err)
	}
	for _, a := range actions {
		if !strings.HasPrefix(a.Title, "Ignore ") {
			continue
		}
		if len(a.Edit.DocumentChanges) > 0 {
			create, _ := a.Edit.DocumentChanges[0].(map[string]any)
			u, _ := create["uri"].(string)
			return protocol.DocumentURI(u), true
		}
		for u := range a.Edit.Changes {
			return u, true
		}
	}
	return "", false
}

// TestConfigEditsChangeDiagnostics: a .wop.yaml above the pack written on
// disk, edited as an unsaved buffer, closed and deleted changes the pack's
// diagnostics each time, and the "ignore" action, which reads the settings
// the server keeps, follows (it is not offered while a configuration above
// the pack applies).
func TestConfigEditsChangeDiagnostics(t *testing.T) {
	dir := copyExample(t)
	s := start(t, dir)
	manifest := filepath.Join(dir, "pack.json")
	cfg := filepath.Join(filepath.Dir(dir), ".wop.yaml")
	own := uri.File(filepath.Join(dir, ".wop.yaml"))
	text := strings.Replace(read(t, manifest), `"Apache-2.0"`, `"Apache 2"`, 1)
	if err := s.Open(s.ctx, manifest, text); err != nil {
		t.Fatal(err)
	}
	const rule = "license-not-spdx"
	ruleAt(t, s, manifest, rule, protocol.DiagnosticSeverityWarning, "no .wop.yaml")
	if target, ok := ignoreTarget(t, s, manifest, rule); target != own {
		t.Errorf("no .wop.yaml: ignore action on %s (offered %v), want %s", target, ok, own)
	}

	onDisk := func(why string, typ protocol.FileChangeType) {
		t.Helper()
		if err := s.Notify(s.ctx, protocol.MethodWorkspaceDidChangeWatchedFiles, &protocol.DidChangeWatchedFilesParams{Changes: []*protocol.FileEvent{
			{URI: uri.File(cfg), Type: typ}}}); err != nil {
			t.Fatalf("%s: %v", why, err)
		}
	}
	mustWrite(t, cfg, "rules:\n  "+rule+": error\n")
	onDisk("written", protocol.FileChangeTypeCreated)
	ruleAt(t, s, manifest, rule, protocol.DiagnosticSeverityError, "written on disk")
	if target, ok := ignoreTarget(t, s, manifest, rule); ok {
		t.Errorf("a .wop.yaml above the pack: ignore action offered on %s", target)
	}

	if err := s.Open(s.ctx, cfg, "rules:\n  "+rule+": error\n"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Change(s.ctx, cfg, lsptest.Edit{Text: "rules:\n  " + rule + ": off\n"}); err != nil {
		t.Fatal(err)
	}
	ruleAt(t, s, manifest, rule, 0, "turned off in the unsaved buffer")
	if _, err := s.Change(s.ctx, cfg, lsptest.Edit{Text: "rules:\n  " + rule + ": warning\n"}); err != nil {
		t.Fatal(err)
	}
	ruleAt(t, s, manifest, rule, protocol.DiagnosticSeverityWarning, "a warning in the unsaved buffer")
	if err := s.Close(s.ctx, cfg); err != nil {
		t.Fatal(err)
	}
	ruleAt(t, s, manifest, rule, protocol.DiagnosticSeverityError, "the buffer closed unsaved")

	if err := os.Remove(cfg); err != nil {
		t.Fatal(err)
	}
	onDisk("deleted", protocol.FileChangeTypeDeleted)
	ruleAt(t, s, manifest, rule, protocol.DiagnosticSeverityWarning, "deleted on disk")
	if target, ok := ignoreTarget(t, s, manifest, rule); target != own {
		t.Errorf("deleted: ignore action on %s (offered %v), want %s", target, ok, own)
	}
}

// TestUnsavedNewConfig: a .wop.yaml buffer never saved gets its mistakes
// (both of them, as the CLI reports them once saved), the pack's other
// diagnostics give way to them as lint's do, and once it is right it
// configures the pack.
func TestUnsavedNewConfig(t *testing.T) {
	dir := copyExample(t)
	s := start(t, dir)
	manifest := filepath.Join(dir, "pack.json")
	cfg := filepath.Join(dir, ".wop.yaml")
	const rule = "license-not-spdx"
	if err := s.Open(s.ctx, manifest, strings.Replace(read(t, manifest), `"Apache-2.0"`, `"Apache 2"`, 1)); err != nil {
		t.Fatal(err)
	}
	ruleAt(t, s, manifest, rule, protocol.DiagnosticSeverityWarning, "no .wop.yaml")
	if err := s.Open(s.ctx, cfg, "rules:\n  license-not-spd: off\n  ref-missing: sometimes\n"); err != nil {
		t.Fatal(err)
	}
	p, err := s.Diagnostics(s.ctx, cfg, func(p protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) > 0 })
	if err != nil {
		t.Fatalf("a new .wop.yaml never saved: %v", err)
	}
	got := messages(p.Diagnostics)
	if len(p.Diagnostics) != 2 || !strings.Contains(got, `did you mean "license-not-spdx"`) || !strings.Contains(got, `unknown severity "sometimes"`) {
		t.Errorf("diagnostics = %s, want the unknown rule and the unknown severity", got)
	}
	if p.Diagnostics[0].Range.Start.Line != 1 || p.Diagnostics[1].Range.Start.Line != 2 {
		t.Errorf("ranges = %+v, %+v, want lines 1 and 2", p.Diagnostics[0].Range, p.Diagnostics[1].Range)
	}
	ruleAt(t, s, manifest, rule, 0, "a broken configuration: lint stops, as the CLI does")
	if _, err := s.Change(s.ctx, cfg, lsptest.Edit{Text: "rules:\n  " + rule + ": error\n"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Diagnostics(s.ctx, cfg, func(p protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 0 }); err != nil {
		t.Fatal(err)
	}
	ruleAt(t, s, manifest, rule, protocol.DiagnosticSeverityError, "raised in the unsaved .wop.yaml")
	if _, err := os.Stat(cfg); !os.IsNotExist(err) {
		t.Errorf("the .wop.yaml is on disk (%v): the test means a buffer never saved", err)
	}
}

// TestQuietChangeLintedAtOnce: a change after a quiet spell longer than
// the debounce is linted without waiting for it; changes in a burst still
// cost one run, after the debounce.
func TestQuietChangeLintedAtOnce(t *testing.T) {
	const debounce = time.Second
	dir := copyExample(t)
	var runs atomic.Int32
	s := startWith(t, dir, func(srv *Server) {
		srv.opt.Debounce = debounce
		srv.holdRun = func() { runs.Add(1) }
	})
	manifest := filepath.Join(dir, "pack.json")
	text := read(t, manifest)
	if err := s.Open(s.ctx, manifest, text); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Diagnostics(s.ctx, manifest, lsptest.AtVersion(1)); err != nil {
		t.Fatal(err)
	}
	time.Sleep(debounce + 100*time.Millisecond)
	t0 := time.Now()
	v, err := s.Change(s.ctx, manifest, lsptest.Edit{Text: text + " "})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Diagnostics(s.ctx, manifest, lsptest.AtVersion(v)); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(t0); took >= debounce*9/10 {
		t.Errorf("a change after a quiet spell: diagnostics after %v, want well under the %v debounce", took, debounce)
	}
	before := runs.Load()
	for i := range 4 {
		if v, err = s.Change(s.ctx, manifest, lsptest.Edit{Text: text + strings.Repeat(" ", i+2)}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Diagnostics(s.ctx, manifest, lsptest.AtVersion(v)); err != nil {
		t.Fatal(err)
	}
	if n := runs.Load() - before; n != 1 {
		t.Errorf("a burst of 4 changes: %d runs, want 1", n)
	}
}

// TestFileChangedDropsSettings: a change drops the settings of the packs
// below a .wop.yaml, of those a configuration of another name applied to
// (WOP_CONFIG), and those that could not be made; no other.
func TestFileChangedDropsSettings(t *testing.T) {
	root := t.TempDir()
	p := func(parts ...string) string { return filepath.Join(append([]string{root}, parts...)...) }
	fill := func() *packCache {
		c := newPackCache()
		c.settings[p("x", "a")] = settingsEntry{s: &lintrun.Settings{ConfigPath: p("custom.yaml")}}
		c.settings[p("y", "b")] = settingsEntry{s: &lintrun.Settings{ConfigPath: p("y", ".wop.yaml")}}
		c.settings[p("y", "c")] = settingsEntry{s: &lintrun.Settings{}}
		c.settings[p("z", "d")] = settingsEntry{err: errors.New("broken")}
		return c
	}
	for changed, want := range map[string]string{
		p("custom.yaml"):               "y/b y/c",
		p("y", ".wop.yaml"):            "x/a",
		p("y", "c", ".wop.yml"):        "x/a y/b",
		p("y", "b", "pack.json"):       "x/a y/b y/c",
		p("y", "b", "prompts", "p.md"): "x/a y/b y/c",
	} {
		c := fill()
		c.fileChanged(changed)
		var kept []string
		for dir := range c.settings {
			rel, _ := filepath.Rel(root, dir)
			kept = append(kept, filepath.ToSlash(rel))
		}
		slices.Sort(kept)
		if got := strings.Join(kept, " "); got != want {
			t.Errorf("%s changed: kept %q, want %q", changed, got, want)
		}
	}
}

// TestPackAppearsOnDisk: a document outside any pack belongs to the pack
// whose pack.json is then written above it (didChangeWatchedFiles), and is
// linted with it: the remembered answer "no pack" is dropped.
func TestPackAppearsOnDisk(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "community.example.new")
	schema := filepath.Join(dir, "schemas", "a.json")
	mustWrite(t, schema, "{}\n")
	s := start(t, dir)
	if err := s.Open(s.ctx, schema, "{}\n"); err != nil {
		t.Fatal(err)
	}
	// A request that asks for the document's pack before there is one.
	var list protocol.CompletionList
	if err := s.Call(s.ctx, protocol.MethodTextDocumentCompletion, &protocol.CompletionParams{TextDocumentPositionParams: at(t, schema, "{}\n", "}")}, &list); err != nil {
		t.Fatal(err)
	}
	manifest := filepath.Join(dir, "pack.json")
	mustWrite(t, manifest, `{"name": "community.example.new", "version": "1.0.0"}`+"\n")
	if err := s.Notify(s.ctx, protocol.MethodWorkspaceDidChangeWatchedFiles, &protocol.DidChangeWatchedFilesParams{Changes: []*protocol.FileEvent{
		{URI: uri.File(manifest), Type: protocol.FileChangeTypeCreated}}}); err != nil {
		t.Fatal(err)
	}
	// The pack is linted: its findings on pack.json are published (the
	// manifest lacks what the schema requires).
	ctx, cancel := context.WithTimeout(s.ctx, 10*time.Second)
	defer cancel()
	if _, err := s.Diagnostics(ctx, manifest, func(p protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) > 0 }); err != nil {
		t.Fatalf("the pack written above an open document was not linted: %v", err)
	}
}
