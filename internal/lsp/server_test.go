package lsp

import (
	"bytes"
	"context"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/lintrun"
	"github.com/wop-cli/wop/internal/lsp/lsptest"
	"github.com/wop-cli/wop/internal/report"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// copyExample copies the repository's text-tools example pack into a
// temporary directory and returns the pack's path.
func copyExample(t testing.TB) string {
	t.Helper()
	src := filepath.Join("..", "..", "examples", "community.example.text-tools")
	dst := filepath.Join(t.TempDir(), "text-tools")
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	return dst
}

func testEnv(dir string, log io.Writer) *lintrun.Env {
	return &lintrun.Env{WorkDir: dir, Getenv: func(string) string { return "" }, Out: io.Discard, ErrOut: log}
}

// session is a server in process and a client on a pipe to it.
type session struct {
	*lsptest.Client
	ctx    context.Context
	served chan error
	log    *bytes.Buffer
	pipe   net.Conn // the client's end
}

func start(t *testing.T, root string) *session {
	t.Helper()
	return startWith(t, root, nil)
}

// startWith is start with the server set up by setup first (nil: as
// Serve makes it).
func startWith(t *testing.T, root string, setup func(*Server)) *session {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	a, b := net.Pipe()
	s := &session{ctx: ctx, served: make(chan error, 1), log: &bytes.Buffer{}, pipe: b}
	srv := newServer(Options{Env: testEnv(root, s.log), Debounce: time.Millisecond})
	if setup != nil {
		setup(srv)
	}
	go func() { s.served <- srv.serve(ctx, a) }()
	s.Client = lsptest.New(ctx, b)
	if _, err := s.Initialize(ctx, root); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return s
}

func read(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func codes(ds []protocol.Diagnostic) string {
	var out []string
	for _, d := range ds {
		if c, ok := d.Code.(string); ok {
			out = append(out, c)
		} else {
			out = append(out, "-")
		}
	}
	return strings.Join(out, " ")
}

func find(ds []protocol.Diagnostic, code string) (protocol.Diagnostic, bool) {
	for _, d := range ds {
		if d.Code == code {
			return d, true
		}
	}
	return protocol.Diagnostic{}, false
}

// TestUnsavedBufferDiagnostics: an edit in the buffer (not on disk) gets
// the rule's diagnostic with code, link, source, severity and the value's
// range; closing the document brings back what the disk gives.
func TestUnsavedBufferDiagnostics(t *testing.T) {
	dir := copyExample(t)
	s := start(t, dir)
	manifest := filepath.Join(dir, "pack.json")
	text := read(t, manifest)
	if err := s.Open(s.ctx, manifest, text); err != nil {
		t.Fatal(err)
	}
	if p, err := s.Diagnostics(s.ctx, manifest, lsptest.AtVersion(1)); err != nil || len(p.Diagnostics) != 0 {
		t.Fatalf("clean pack: %+v, %v", p.Diagnostics, err)
	}
	broken := strings.Replace(text, `"schemas/uppercase.input.json"`, `"schemas/missing.json"`, 1)
	v, _ := s.Change(s.ctx, manifest, lsptest.Edit{Text: broken})
	p, err := s.Diagnostics(s.ctx, manifest, lsptest.AtVersion(v))
	if err != nil {
		t.Fatal(err)
	}
	d, ok := find(p.Diagnostics, "ref-missing")
	if !ok {
		t.Fatalf("diagnostics = %s, want ref-missing", codes(p.Diagnostics))
	}
	start := strings.Index(broken, `"schemas/missing.json"`)
	want := rangeOf([]byte(broken), start, start+len(`"schemas/missing.json"`))
	if d.Range != want || d.Source != "wop" || d.Severity != protocol.DiagnosticSeverityError ||
		d.CodeDescription == nil || d.CodeDescription.Href != uri.URI(report.RuleDocURL("ref-missing")) {
		t.Errorf("diagnostic = %+v, want range %+v, source wop, error, rule doc link", d, want)
	}
	if read(t, manifest) != text {
		t.Error("the buffer reached the disk")
	}
	if err := s.Close(s.ctx, manifest); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Diagnostics(s.ctx, manifest, func(p protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 0 }); err != nil {
		t.Fatal(err)
	}
}

// closeClient makes the client vanish: its end of the stream closes.
func closeClient(t *testing.T, s *session) {
	t.Helper()
	if err := s.pipe.Close(); err != nil {
		t.Fatal(err)
	}
}

func mustParse(t *testing.T, text []byte) *jsonpos.Doc {
	t.Helper()
	doc, err := jsonpos.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// nopConn is a connection that sends nothing, for handlers tested alone;
// it records the methods of the notifications it was given.
type nopConn struct {
	jsonrpc2.Conn
	sent []string
}

func (c *nopConn) Notify(_ context.Context, method string, _ any) error {
	c.sent = append(c.sent, method)
	return nil
}
