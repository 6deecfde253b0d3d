package lsp

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/invocation"
	"github.com/wop-cli/wop/internal/lint"
	"github.com/wop-cli/wop/internal/lsp/lsptest"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// TestRangeCountsUTF16: emoji (two UTF-16 units) and CJK (one unit, three
// bytes) before a value on its line still underline exactly the value.
func TestRangeCountsUTF16(t *testing.T) {
	text := []byte("{\n  \"description\": \"😀 日本\", \"license\": \"Nope\"\n}\n")
	value := strings.Index(string(text), `"Nope"`)
	line2 := strings.Index(string(text), "  \"description")
	col := len([]rune(string(text[line2:value]))) + 1 // lint's column: code points, from 1
	doc := mustParse(t, text)
	got := findingRange(newLines(text), doc, diag.Diagnostic{Start: diag.Position{Line: 2, Column: col}})
	// "  \"description\": \"" is 18 units, 😀 2, " 日本" 3, "\", \"license\": " 14.
	want := protocol.Range{Start: protocol.Position{Line: 1, Character: 37}, End: protocol.Position{Line: 1, Character: 43}}
	if got != want {
		t.Errorf("range = %+v, want %+v", got, want)
	}
	if line, c := lintPosOf(text, got.Start); line != 2 || c != col {
		t.Errorf("lintPosOf = %d:%d, want 2:%d", line, c, col)
	}
}

// TestHalfTypedJSON: `{"name": ` gets the JSON diagnostic where the text
// stops, and hover and completion still answer.
func TestHalfTypedJSON(t *testing.T) {
	dir := copyExample(t)
	s := start(t, dir)
	manifest := filepath.Join(dir, "pack.json")
	if err := s.Open(s.ctx, manifest, `{"name": `); err != nil {
		t.Fatal(err)
	}
	p, err := s.Diagnostics(s.ctx, manifest, lsptest.AtVersion(1))
	if err != nil {
		t.Fatal(err)
	}
	d, ok := find(p.Diagnostics, "json-invalid")
	at := protocol.Position{Line: 0, Character: 9}
	if !ok || d.Range.Start != at {
		t.Fatalf("diagnostics = %+v, want json-invalid at 0:9", p.Diagnostics)
	}
	var list protocol.CompletionList
	if err := s.Call(s.ctx, protocol.MethodTextDocumentCompletion, &protocol.CompletionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(manifest)}, Position: at}}, &list); err != nil {
		t.Fatalf("completion on a half-typed document: %v", err)
	}
}

// TestSyntaxErrorRange: a JSON syntax error underlines the one character
// the message is about (the stray comma), not the rest of its line.
func TestSyntaxErrorRange(t *testing.T) {
	dir := copyExample(t)
	s := start(t, dir)
	manifest := filepath.Join(dir, "pack.json")
	if err := s.Open(s.ctx, manifest, `{"name": "x",, "version": "1.0.0"}`); err != nil {
		t.Fatal(err)
	}
	p, err := s.Diagnostics(s.ctx, manifest, lsptest.AtVersion(1))
	if err != nil {
		t.Fatal(err)
	}
	d, ok := find(p.Diagnostics, "json-invalid")
	want := protocol.Range{Start: protocol.Position{Line: 0, Character: 13}, End: protocol.Position{Line: 0, Character: 14}}
	if !ok || d.Range != want || !strings.Contains(d.Message, "a second comma") {
		t.Errorf("diagnostics = %+v, want json-invalid over the second comma, 0:13-0:14", p.Diagnostics)
	}
}

// TestConfigDiagnostics: a .wop.yaml buffer's mistakes are diagnostics at
// their line and column.
func TestConfigDiagnostics(t *testing.T) {
	dir := copyExample(t)
	cfg := filepath.Join(dir, ".wop.yaml")
	if err := os.WriteFile(cfg, []byte("registry: private\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := start(t, dir)
	if err := s.Open(s.ctx, cfg, "registry: private\nrules:\n  ref-missing: sometimes\n"); err != nil {
		t.Fatal(err)
	}
	p, err := s.Diagnostics(s.ctx, cfg, func(p protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) > 0 })
	if err != nil {
		t.Fatal(err)
	}
	d := p.Diagnostics[0]
	if d.Range.Start != (protocol.Position{Line: 2, Character: 15}) || !strings.Contains(d.Message, `unknown severity "sometimes"`) {
		t.Errorf("diagnostic = %+v, want the severity at 2:15", d)
	}
}

// TestQuickFixes: a fixable finding offers lint's fix as a minimal edit,
// and every finding offers the .wop.yaml ignore entry; hover on it shows
// the rule's explanation.
func TestQuickFixes(t *testing.T) {
	dir := copyExample(t)
	s := start(t, dir)
	manifest := filepath.Join(dir, "pack.json")
	text := strings.Replace(read(t, manifest), `"schemas/uppercase.input.json"`, `"./schemas/uppercase.input.json"`, 1)
	if err := s.Open(s.ctx, manifest, text); err != nil {
		t.Fatal(err)
	}
	p, err := s.Diagnostics(s.ctx, manifest, lsptest.AtVersion(1))
	if err != nil {
		t.Fatal(err)
	}
	d, ok := find(p.Diagnostics, "ref-not-canonical")
	if !ok {
		t.Fatalf("diagnostics = %s, want ref-not-canonical", codes(p.Diagnostics))
	}
	var actions []codeAction
	if err := s.Call(s.ctx, protocol.MethodTextDocumentCodeAction, &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(manifest)},
		Range: d.Range, Context: protocol.CodeActionContext{Diagnostics: []protocol.Diagnostic{d}}}, &actions); err != nil {
		t.Fatal(err)
	}
	if len(actions) != 2 {
		t.Fatalf("actions = %+v, want a fix and an ignore", actions)
	}
	edits := actions[0].Edit.Changes[uri.File(manifest)]
	start := strings.Index(text, "./schemas")
	if len(edits) != 1 || edits[0].NewText != "" || edits[0].Range != rangeOf([]byte(text), start, start+2) {
		t.Errorf("fix edits = %+v, want the ./ removed", edits)
	}
	create, _ := actions[1].Edit.DocumentChanges[0].(map[string]any)
	if create["kind"] != "create" || create["uri"] != string(uri.File(filepath.Join(dir, ".wop.yaml"))) {
		t.Errorf("ignore action = %+v, want the pack's .wop.yaml created", actions[1].Edit)
	}
	var hover protocol.Hover
	if err := s.Call(s.ctx, protocol.MethodTextDocumentHover, &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(manifest)}, Position: d.Range.Start}}, &hover); err != nil {
		t.Fatal(err)
	}
	// Short, Markdown (no fenced --explain text with literal backticks),
	// and a link to the rule's page.
	md := hover.Contents.Value
	if !strings.Contains(md, "**ref-not-canonical** (error): ") || !strings.Contains(md, "](https://github.com/wop-cli/wop/blob/main/docs/rules.md#ref-not-canonical)") ||
		strings.Contains(md, "```") || len(md) > 800 {
		t.Errorf("hover = %q, want the rule in a few lines with a link to its page", md)
	}
}

// TestQuickFixFromContext: a client that sends the cursor as the range and
// the line's diagnostics as the context (Neovim's code_action with the
// cursor on the member's name) gets the actions of those diagnostics.
func TestQuickFixFromContext(t *testing.T) {
	dir := copyExample(t)
	s := start(t, dir)
	manifest := filepath.Join(dir, "pack.json")
	text := strings.Replace(read(t, manifest), `"schemas/uppercase.input.json"`, `"./schemas/uppercase.input.json"`, 1)
	if err := s.Open(s.ctx, manifest, text); err != nil {
		t.Fatal(err)
	}
	p, err := s.Diagnostics(s.ctx, manifest, lsptest.AtVersion(1))
	if err != nil {
		t.Fatal(err)
	}
	d, ok := find(p.Diagnostics, "ref-not-canonical")
	if !ok {
		t.Fatalf("diagnostics = %s, want ref-not-canonical", codes(p.Diagnostics))
	}
	cursor := protocol.Position{Line: d.Range.Start.Line, Character: 0}
	var actions []codeAction
	if err := s.Call(s.ctx, protocol.MethodTextDocumentCodeAction, &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(manifest)},
		Range: protocol.Range{Start: cursor, End: cursor}, Context: protocol.CodeActionContext{Diagnostics: []protocol.Diagnostic{d, d}}}, &actions); err != nil {
		t.Fatal(err)
	}
	if len(actions) != 2 {
		t.Errorf("actions = %+v, want the fix and the ignore of the context's diagnostic", actions)
	}
}

// TestAddIgnore: the entry goes into an existing file's rules, the short
// form becomes the long one, and an entry already there is not repeated.
func TestAddIgnore(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"new file", "", "rules:\n  ref-missing:\n    ignore:\n      - pack.json\n"},
		{"short form", "# keep\nregistry: private\nrules:\n  ref-missing: warning\n",
			"# keep\nregistry: private\nrules:\n  ref-missing:\n    severity: warning\n    ignore:\n      - pack.json\n"},
		{"already", "rules:\n  ref-missing:\n    ignore:\n      - pack.json\n", "rules:\n  ref-missing:\n    ignore:\n      - pack.json\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := addIgnore([]byte(tt.src), "ref-missing", "pack.json")
			if err != nil || string(got) != tt.want {
				t.Errorf("addIgnore = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
	if _, err := addIgnore([]byte("- a list\n"), "ref-missing", "pack.json"); err == nil {
		t.Error("a list was edited as a configuration")
	}
}

// TestDependentsRelint: a finding in a file that is not open is published
// on that file; a schema's buffer is linted as part of its pack; a file
// deleted on disk (didChangeWatchedFiles) is seen.
func TestDependentsRelint(t *testing.T) {
	dir := copyExample(t)
	onDisk := filepath.Join(dir, "schemas", "uppercase.input.json")
	if err := os.WriteFile(onDisk, []byte("{,}"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := start(t, dir)
	manifest := filepath.Join(dir, "pack.json")
	schema := filepath.Join(dir, "schemas", "uppercase.config.json")
	if err := s.Open(s.ctx, manifest, read(t, manifest)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Diagnostics(s.ctx, onDisk, func(p protocol.PublishDiagnosticsParams) bool {
		_, ok := find(p.Diagnostics, "json-invalid")
		return ok
	}); err != nil {
		t.Fatalf("a file that is not open: %v", err)
	}
	if err := s.Open(s.ctx, schema, `{"type": `); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Diagnostics(s.ctx, schema, func(p protocol.PublishDiagnosticsParams) bool {
		_, ok := find(p.Diagnostics, "json-invalid")
		return ok
	}); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "schemas", "uppercase.output.json")); err != nil {
		t.Fatal(err)
	}
	if err := s.Notify(s.ctx, protocol.MethodWorkspaceDidChangeWatchedFiles, &protocol.DidChangeWatchedFilesParams{Changes: []*protocol.FileEvent{
		{URI: uri.File(filepath.Join(dir, "schemas", "uppercase.output.json")), Type: protocol.FileChangeTypeDeleted}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Diagnostics(s.ctx, manifest, func(p protocol.PublishDiagnosticsParams) bool { _, ok := find(p.Diagnostics, "ref-missing"); return ok }); err != nil {
		t.Fatal(err)
	}
}

// TestLargeAndBinaryBuffers: a 5 MB buffer and a binary file get an answer
// (diagnostics, hover) and the session goes on.
func TestLargeAndBinaryBuffers(t *testing.T) {
	dir := copyExample(t)
	s := start(t, dir)
	big := filepath.Join(dir, "README.md")
	if err := s.Open(s.ctx, big, strings.Repeat("lorem ipsum 😀 ", 5<<20/16)); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "pack.json")
	if err := s.Open(s.ctx, bin, "\x00\x01\xff\xfe{\x00"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Diagnostics(s.ctx, bin, func(p protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) > 0 }); err != nil {
		t.Fatal(err)
	}
	var hover *protocol.Hover
	if err := s.Call(s.ctx, protocol.MethodTextDocumentHover, &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(big)}, Position: protocol.Position{Line: 0, Character: 3}}}, &hover); err != nil {
		t.Fatal(err)
	}
}

// TestVanishedClient: when the client's stream ends, Serve returns.
func TestVanishedClient(t *testing.T) {
	dir := copyExample(t)
	s := start(t, dir)
	if err := s.Open(s.ctx, filepath.Join(dir, "pack.json"), "{"); err != nil {
		t.Fatal(err)
	}
	s.Client.Close(s.ctx, filepath.Join(dir, "pack.json"))
	closeClient(t, s)
	select {
	case err := <-s.served:
		if err == nil {
			t.Error("Serve returned nil for a client that left without shutdown")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return after the client left")
	}
}

// TestShutdown: shutdown then exit ends Serve cleanly.
func TestShutdown(t *testing.T) {
	s := start(t, copyExample(t))
	if err := s.Shutdown(s.ctx); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-s.served:
		if err != nil {
			t.Errorf("Serve = %v after shutdown and exit", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return after exit")
	}
}

// TestPanicIsReported: a panic in a handler is logged, shown to the user
// and answered with an error; the server goes on.
func TestPanicIsReported(t *testing.T) {
	var log strings.Builder
	srv := newServer(Options{Env: testEnv("/", &log)})
	srv.conn = &nopConn{}
	var replied error
	h := srv.recovering(func(context.Context, jsonrpc2.Replier, jsonrpc2.Request) error { panic("boom") })
	req, _ := jsonrpc2.NewCall(jsonrpc2.NewNumberID(1), "textDocument/hover", nil)
	if err := h(context.Background(), func(_ context.Context, _ any, err error) error { replied = err; return nil }, req); err != nil {
		t.Fatal(err)
	}
	if replied == nil || !strings.Contains(log.String(), "panic in textDocument/hover: boom") {
		t.Errorf("reply error %v, log %q", replied, log.String())
	}
	if conn := srv.conn.(*nopConn); len(conn.sent) != 1 || conn.sent[0] != protocol.MethodWindowShowMessage {
		t.Errorf("notifications sent = %v, want one window/showMessage", conn.sent)
	}
}

// TestCancelledRequest: a request whose context is cancelled is answered
// with RequestCancelled, not left without a reply.
func TestCancelledRequest(t *testing.T) {
	srv := newServer(Options{Env: testEnv("/", &strings.Builder{})})
	srv.initialized = true
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	req, _ := jsonrpc2.NewCall(jsonrpc2.NewNumberID(1), protocol.MethodTextDocumentCodeAction, &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: "file:///nowhere/pack.json"}})
	var got error
	_ = srv.dispatch(ctx, func(_ context.Context, _ any, err error) error { got = err; return nil }, req)
	var rpcErr *jsonrpc2.Error
	if !errors.As(got, &rpcErr) || rpcErr.Code != requestCancelled {
		t.Errorf("reply error = %v, want RequestCancelled", got)
	}
}

// TestLinesIndex: the line index and positionOf place every offset (CRLF
// lines, multi-byte runes, past the end, an empty text) where a count from
// the top of the text does, and lint's positions at the same offsets.
func TestLinesIndex(t *testing.T) {
	for _, text := range []string{"", "\n", "a", "ab\ncd\n", "{\r\n  \"x\": \"😀 日本\"\r\n}", "\n\n\nx\n\n"} {
		idx := newLines([]byte(text))
		for off := -1; off <= len(text)+1; off++ {
			clamped := min(max(off, 0), len(text))
			before := text[:clamped]
			lineStart := strings.LastIndex(before, "\n") + 1
			want := protocol.Position{Line: uint32(strings.Count(before, "\n")), Character: uint32(len(utf16.Encode([]rune(before[lineStart:]))))}
			if got := idx.position(off); got != want {
				t.Errorf("%q: position(%d) = %+v, want %+v", text, off, got, want)
			}
			if got := positionOf([]byte(text), off); got != want {
				t.Errorf("%q: positionOf(%d) = %+v, want %+v", text, off, got, want)
			}
		}
		for line := 1; line <= strings.Count(text, "\n")+2; line++ {
			for col := 1; col < 8; col++ {
				off := idx.lintOffset(line, col)
				if off < len(text) && text[off] != '\n' {
					if l, c := lintPosOf([]byte(text), idx.position(off)); l != line || c != col {
						t.Errorf("%q: lintOffset(%d, %d) = %d, at %d:%d", text, line, col, off, l, c)
					}
				}
			}
		}
	}
}

// TestRuleHoverNamesTheCommand: the hover's --explain command is typed as
// the user starts wop ("npx wop" where the extension found the workspace's
// npm install and said so in WOP_INVOKED_AS).
func TestRuleHoverNamesTheCommand(t *testing.T) {
	for _, tt := range []struct{ invoked, want string }{
		{"", "`wop pack lint --explain ref-not-canonical`"},
		{"npx wop", "`npx wop pack lint --explain ref-not-canonical`"},
	} {
		md, ok := ruleHover("ref-not-canonical", invocation.Name(tt.invoked))
		if !ok || !strings.Contains(md, tt.want) {
			t.Errorf("invoked %q: hover %q, want %s", tt.invoked, md, tt.want)
		}
	}
	if _, ok := ruleHover("no-such-rule", ""); ok {
		t.Error("a hover for a rule that does not exist")
	}
	// The command lines of the rule's summary and prose too.
	for _, tt := range []struct{ invoked, want string }{
		{"", "from wop pack init (TODO:)"},
		{"npx wop", "from npx wop pack init (TODO:)"},
		{"", "`wop pack init` writes `TODO:`"},
		{"npx wop", "`npx wop pack init` writes `TODO:`"},
	} {
		if md, _ := ruleHover("placeholder-left", invocation.Name(tt.invoked)); !strings.Contains(md, tt.want) {
			t.Errorf("invoked %q: hover %q, want %s", tt.invoked, md, tt.want)
		}
	}
}

// TestRuleHoverShort: a rule's hover holds the first paragraph of its
// prose, not the rest (the rules page and --explain have it), and a
// deprecated rule says so instead.
func TestRuleHoverShort(t *testing.T) {
	checked := false
	for _, r := range lint.All() {
		doc, err := lint.Explain(r.ID)
		if r.Deprecated != "" || err != nil {
			continue
		}
		paras := strings.Split(strings.TrimSpace(doc.Prose), "\n\n")
		if len(paras) < 2 || strings.TrimSpace(paras[1]) == "" || strings.Contains(paras[0], paras[1]) {
			continue
		}
		md, ok := ruleHover(r.ID, "")
		if !ok || !strings.Contains(md, paras[0]) || strings.Contains(md, paras[1]) {
			t.Errorf("%s: hover %q, want its first paragraph only", r.ID, md)
		}
		checked = true
		break
	}
	if !checked {
		t.Fatal("no rule with two paragraphs of prose")
	}
	for _, r := range lint.All() {
		if r.Deprecated == "" {
			continue
		}
		if md, ok := ruleHover(r.ID, ""); !ok || !strings.Contains(md, "Deprecated: "+r.Deprecated) {
			t.Errorf("%s: hover %q, want it deprecated", r.ID, md)
		}
	}
}
