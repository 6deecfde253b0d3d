package lsp

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wop-cli/wop/internal/lsp/lsptest"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// hostilePack is the example pack whose refs point out of it: up the
// tree, through a link to a file outside, at a FIFO and at a 50 MB file.
func hostilePack(t *testing.T) string {
	t.Helper()
	dir := copyExample(t)
	outside := filepath.Join(t.TempDir(), "secret.json")
	if err := os.WriteFile(outside, []byte(`{"secret": true}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "schemas", "link.json")); err != nil {
		t.Fatal(err)
	}
	if err := mkfifo(filepath.Join(dir, "schemas", "fifo.json")); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	big, err := os.Create(filepath.Join(dir, "schemas", "big.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := big.Truncate(50 << 20); err != nil {
		t.Fatal(err)
	}
	big.Close()
	up, _ := filepath.Rel(dir, outside)
	manifest := filepath.Join(dir, "pack.json")
	text := read(t, manifest)
	for old, ref := range map[string]string{"uppercase.config.json": up, "uppercase.input.json": "schemas/link.json", "uppercase.output.json": "schemas/fifo.json"} {
		text = strings.Replace(text, `"schemas/`+old+`"`, `"`+ref+`"`, 1)
	}
	text = strings.Replace(text, `"category": "data",`, `"category": "data", "readmeRef": "schemas/big.json",`, 1)
	if err := os.WriteFile(manifest, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestHostileWorkspace: refs out of the pack, links, a FIFO and a 50 MB
// file get diagnostics without a hang, and no answer points outside the
// pack.
func TestHostileWorkspace(t *testing.T) {
	dir := hostilePack(t)
	s := start(t, dir)
	manifest := filepath.Join(dir, "pack.json")
	text := read(t, manifest)
	if err := s.Open(s.ctx, manifest, text); err != nil {
		t.Fatal(err)
	}
	p, err := s.Diagnostics(s.ctx, manifest, lsptest.AtVersion(1))
	if err != nil {
		t.Fatal(err)
	}
	if got := codes(p.Diagnostics); !strings.Contains(got, "ref-escapes-pack") || strings.Count(got, "ref-not-file") != 2 {
		t.Errorf("diagnostics = %s, want the ref out of the pack, the link and the FIFO refused", got)
	}
	// The findings about the link and the FIFO themselves stand on
	// pack.json: an editor reads the file a diagnostic names, and a FIFO
	// would block it for good. (Published with pack.json's, in one batch:
	// a short wait is enough to see one.)
	for _, name := range []string{"link.json", "fifo.json"} {
		ctx, cancel := context.WithTimeout(s.ctx, 700*time.Millisecond)
		if p, err := s.Diagnostics(ctx, filepath.Join(dir, "schemas", name), func(protocol.PublishDiagnosticsParams) bool { return true }); err == nil {
			t.Errorf("diagnostics published for %s, which is no regular file: %s", name, codes(p.Diagnostics))
		}
		cancel()
	}
	var onManifest int
	for _, d := range p.Diagnostics {
		if strings.HasPrefix(d.Message, "schemas/fifo.json: ") || strings.HasPrefix(d.Message, "schemas/link.json: ") {
			onManifest++
		}
	}
	if onManifest == 0 {
		t.Errorf("no finding about the link or the FIFO on pack.json: %s", codes(p.Diagnostics))
	}
	doc := protocol.TextDocumentIdentifier{URI: uri.File(manifest)}
	var links []protocol.DocumentLink
	if err := s.Call(s.ctx, protocol.MethodTextDocumentDocumentLink, &protocol.DocumentLinkParams{TextDocument: doc}, &links); err != nil {
		t.Fatal(err)
	}
	for _, l := range links {
		if !strings.HasPrefix(string(l.Target), string(uri.File(dir))+"/") || strings.Contains(string(l.Target), "link.json") || strings.Contains(string(l.Target), "fifo") {
			t.Errorf("link to %s", l.Target)
		}
	}
	for _, ref := range []string{"secret.json", "link.json", "fifo.json", "big.json"} {
		at := strings.Index(text, ref)
		pos := positionOf([]byte(text), at+1)
		var locs []protocol.Location
		if err := s.Call(s.ctx, protocol.MethodTextDocumentDefinition, &protocol.DefinitionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: doc, Position: pos}}, &locs); err != nil {
			t.Fatal(err)
		}
		var hover *protocol.Hover
		if err := s.Call(s.ctx, protocol.MethodTextDocumentHover, &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: doc, Position: pos}}, &hover); err != nil {
			t.Fatal(err)
		}
		for _, l := range locs {
			if target, _ := pathOf(l.URI); !under(target, dir) || ref != "big.json" {
				t.Errorf("%s: definition %s", ref, l.URI)
			}
		}
		if hover != nil && strings.Contains(hover.Contents.Value, "secret") {
			t.Errorf("%s: hover shows the outside file: %s", ref, hover.Contents.Value)
		}
		var comp protocol.CompletionList
		if err := s.Call(s.ctx, protocol.MethodTextDocumentCompletion, &protocol.CompletionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: doc, Position: pos}}, &comp); err != nil {
			t.Fatal(err)
		}
		for _, it := range comp.Items {
			if strings.Contains(it.Label, "secret") || strings.Contains(it.InsertText, "..") {
				t.Errorf("%s: completion offers %q", ref, it.Label)
			}
		}
	}
}

// TestHostileSchemaRefs: a schema's $ref up and out of the pack, or
// through a link, opens nothing.
func TestHostileSchemaRefs(t *testing.T) {
	dir := hostilePack(t)
	s := start(t, dir)
	schema := filepath.Join(dir, "schemas", "uppercase.config.json")
	text := `{"$schema": "https://json-schema.org/draft/2020-12/schema", "properties": {"a": {"$ref": "../../secret.json"}, "b": {"$ref": "link.json#/x"}, "c": {"$ref": "/etc/passwd"}}}`
	if err := s.Open(s.ctx, schema, text); err != nil {
		t.Fatal(err)
	}
	doc := protocol.TextDocumentIdentifier{URI: uri.File(schema)}
	for _, ref := range []string{"secret.json", "link.json", "passwd"} {
		pos := positionOf([]byte(text), strings.Index(text, ref)+1)
		var locs []protocol.Location
		if err := s.Call(s.ctx, protocol.MethodTextDocumentDefinition, &protocol.DefinitionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: doc, Position: pos}}, &locs); err != nil {
			t.Fatal(err)
		}
		if len(locs) > 0 {
			t.Errorf("%s: definition %v", ref, locs)
		}
	}
	var links []protocol.DocumentLink
	if err := s.Call(s.ctx, protocol.MethodTextDocumentDocumentLink, &protocol.DocumentLinkParams{TextDocument: doc}, &links); err != nil {
		t.Fatal(err)
	}
	if len(links) > 0 {
		t.Errorf("links %v", links)
	}
}

// TestLinkedDirectory: a ref through a directory that is a link out of
// the pack is refused by lint, and no answer opens the file behind it.
func TestLinkedDirectory(t *testing.T) {
	dir := copyExample(t)
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "uppercase.input.json"), []byte(`{"secret": true}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "linked")); err != nil {
		t.Fatal(err)
	}
	manifest := filepath.Join(dir, "pack.json")
	text := strings.Replace(read(t, manifest), `"schemas/uppercase.input.json"`, `"linked/uppercase.input.json"`, 1)
	s := start(t, dir)
	if err := s.Open(s.ctx, manifest, text); err != nil {
		t.Fatal(err)
	}
	p, err := s.Diagnostics(s.ctx, manifest, lsptest.AtVersion(1))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range p.Diagnostics {
		for _, r := range d.RelatedInformation {
			if strings.Contains(string(r.Location.URI), "linked") {
				t.Errorf("%v: related %s", d.Code, r.Location.URI)
			}
		}
	}
	doc := protocol.TextDocumentIdentifier{URI: uri.File(manifest)}
	at := positionOf([]byte(text), strings.Index(text, "linked/")+2)
	var locs []protocol.Location
	if err := s.Call(s.ctx, protocol.MethodTextDocumentDefinition, &protocol.DefinitionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: doc, Position: at}}, &locs); err != nil {
		t.Fatal(err)
	}
	var links []protocol.DocumentLink
	if err := s.Call(s.ctx, protocol.MethodTextDocumentDocumentLink, &protocol.DocumentLinkParams{TextDocument: doc}, &links); err != nil {
		t.Fatal(err)
	}
	var hover *protocol.Hover
	if err := s.Call(s.ctx, protocol.MethodTextDocumentHover, &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: doc, Position: at}}, &hover); err != nil {
		t.Fatal(err)
	}
	for _, l := range links {
		if strings.Contains(string(l.Target), "linked") {
			t.Errorf("link to %s", l.Target)
		}
	}
	if len(locs) > 0 || hover != nil && strings.Contains(hover.Contents.Value, "secret") {
		t.Errorf("definition %v, hover %v", locs, hover)
	}
}

// TestHostileClient: what a broken or hostile client sends is answered or
// ignored, never a hang or a panic: requests before initialize, unknown
// methods, a change to a document never opened, positions past the end,
// 1,000-deep nesting, invalid UTF-8.
func TestHostileClient(t *testing.T) {
	dir := copyExample(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	a, b := net.Pipe()
	defer b.Close()
	log := &syncWriter{}
	go func() { _ = Serve(ctx, a, Options{Env: testEnv(dir, log), Debounce: time.Millisecond}) }()
	c := lsptest.New(ctx, b)
	manifest := filepath.Join(dir, "pack.json")
	doc := protocol.TextDocumentIdentifier{URI: uri.File(manifest)}
	far := protocol.Position{Line: 1 << 30, Character: 1 << 30}
	var hover *protocol.Hover
	if err := c.Call(ctx, protocol.MethodTextDocumentHover, &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: doc, Position: far}}, &hover); err == nil || !strings.Contains(err.Error(), "before initialize") {
		t.Errorf("hover before initialize: %v, want ServerNotInitialized", err)
	}
	if _, err := c.Initialize(ctx, dir); err != nil {
		t.Fatal(err)
	}
	if err := c.Call(ctx, "wop/unknown", nil, nil); err == nil || !strings.Contains(err.Error(), "method not supported") {
		t.Errorf("unknown method: %v", err)
	}
	if _, err := c.Change(ctx, manifest, lsptest.Edit{Text: "{"}); err != nil {
		t.Fatal(err)
	}
	deep := strings.Repeat("[", 1000) + strings.Repeat("]", 1000)
	for _, text := range []string{`{"name": "x", "deep": ` + deep + `}`, "{\"name\": \"\xff\xfe\", \"description\": \"\xc3\"}"} {
		if err := c.Open(ctx, manifest, text); err != nil {
			t.Fatal(err)
		}
		if _, err := c.Diagnostics(ctx, manifest, func(p protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) > 0 }); err != nil {
			t.Fatal(err)
		}
		pos := protocol.TextDocumentPositionParams{TextDocument: doc, Position: positionOf([]byte(text), len(text)/2)}
		for _, p := range []protocol.TextDocumentPositionParams{pos, {TextDocument: doc, Position: far}} {
			if err := c.Call(ctx, protocol.MethodTextDocumentHover, &protocol.HoverParams{TextDocumentPositionParams: p}, &hover); err != nil {
				t.Error(err)
			}
			var comp protocol.CompletionList
			if err := c.Call(ctx, protocol.MethodTextDocumentCompletion, &protocol.CompletionParams{TextDocumentPositionParams: p}, &comp); err != nil {
				t.Error(err)
			}
			var locs []protocol.Location
			if err := c.Call(ctx, protocol.MethodTextDocumentDefinition, &protocol.DefinitionParams{TextDocumentPositionParams: p}, &locs); err != nil {
				t.Error(err)
			}
		}
		var actions []codeAction
		if err := c.Call(ctx, protocol.MethodTextDocumentCodeAction, &protocol.CodeActionParams{TextDocument: doc, Range: protocol.Range{Start: far, End: far}}, &actions); err != nil {
			t.Error(err)
		}
		if _, err := c.Change(ctx, manifest, lsptest.Edit{Range: &protocol.Range{Start: far, End: far}, Text: " "}); err != nil {
			t.Fatal(err)
		}
		if err := c.Close(ctx, manifest); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(log.String(), "panic") {
		t.Errorf("log:\n%s", log.String())
	}
}

// syncWriter is a log the server writes from many goroutines.
type syncWriter struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncWriter) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
