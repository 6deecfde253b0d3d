package lsp

import (
	"context"
	"net"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/wop-cli/wop/internal/lsp/lsptest"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// TestCancelOverTheWire: a $/cancelRequest read from the stream, naming a
// number or a string id, ends a code action waiting for a lint run: its
// reply is RequestCancelled at once, not after the run.
func TestCancelOverTheWire(t *testing.T) {
	dir := copyExample(t)
	manifest := filepath.Join(dir, "pack.json")
	text := strings.Replace(read(t, manifest), `"schemas/uppercase.input.json"`, `"./schemas/uppercase.input.json"`, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	a, b := net.Pipe()
	defer b.Close()
	srv := newServer(Options{Env: testEnv(dir, &syncWriter{}), Debounce: time.Millisecond})
	go func() { _ = srv.serve(ctx, a) }()
	wire := jsonrpc2.NewStream(b)
	send := func(m jsonrpc2.Message, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := wire.Write(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	// next reads until a message ok accepts, within 10 seconds.
	next := func(ok func(jsonrpc2.Message) bool) jsonrpc2.Message {
		t.Helper()
		got := make(chan jsonrpc2.Message, 1)
		go func() {
			for {
				m, _, err := wire.Read(ctx)
				if err != nil {
					close(got)
					return
				}
				if ok(m) {
					got <- m
					return
				}
			}
		}()
		select {
		case m := <-got:
			return m
		case <-time.After(10 * time.Second):
			t.Fatal("no answer in 10 s")
			return nil
		}
	}
	reply := func(id jsonrpc2.ID) func(jsonrpc2.Message) bool {
		return func(m jsonrpc2.Message) bool { r, ok := m.(*jsonrpc2.Response); return ok && r.ID() == id }
	}
	send(jsonrpc2.NewCall(jsonrpc2.NewNumberID(1), protocol.MethodInitialize, &protocol.InitializeParams{}))
	next(reply(jsonrpc2.NewNumberID(1)))
	send(jsonrpc2.NewNotification(protocol.MethodTextDocumentDidOpen, &protocol.DidOpenTextDocumentParams{
		TextDocument: protocol.TextDocumentItem{URI: uri.File(manifest), LanguageID: "json", Version: 1, Text: text}}))
	next(func(m jsonrpc2.Message) bool {
		n, ok := m.(*jsonrpc2.Notification)
		return ok && n.Method() == protocol.MethodTextDocumentPublishDiagnostics && strings.Contains(string(n.Params()), "ref-not-canonical")
	})
	srv.lintMu.Lock() // a lint run that takes a long time
	defer srv.lintMu.Unlock()
	// Drawing a chain reads lint's options for the pack, so it waits for the
	// run (hover, completion and code actions never do).
	draw := &protocol.ExecuteCommandParams{Command: showChainCommand, Arguments: []any{string(uri.File(manifest)), "/chains/0"}}
	for _, id := range []jsonrpc2.ID{jsonrpc2.NewNumberID(7), jsonrpc2.NewStringID("fix-8")} {
		send(jsonrpc2.NewCall(id, protocol.MethodWorkspaceExecuteCommand, draw))
		send(jsonrpc2.NewNotification("$/cancelRequest", map[string]any{"id": &id}))
		r := next(reply(id)).(*jsonrpc2.Response)
		var rpcErr *jsonrpc2.Error
		if e, ok := r.Err().(*jsonrpc2.Error); ok {
			rpcErr = e
		}
		if rpcErr == nil || rpcErr.Code != requestCancelled {
			t.Errorf("reply to %v = %s, %v; want RequestCancelled", id, r.Result(), r.Err())
		}
	}
}

// TestClientDiesMidRequest: a client gone while a request waits for a lint
// run ends the session; the waiting request does not keep Serve.
func TestClientDiesMidRequest(t *testing.T) {
	dir := copyExample(t)
	manifest := filepath.Join(dir, "pack.json")
	text := strings.Replace(read(t, manifest), `"schemas/uppercase.input.json"`, `"./schemas/uppercase.input.json"`, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	a, b := net.Pipe()
	srv := newServer(Options{Env: testEnv(dir, &syncWriter{}), Debounce: time.Millisecond})
	served := make(chan error, 1)
	go func() { served <- srv.serve(ctx, a) }()
	c := lsptest.New(ctx, b)
	if _, err := c.Initialize(ctx, dir); err != nil {
		t.Fatal(err)
	}
	if err := c.Open(ctx, manifest, text); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Diagnostics(ctx, manifest, lsptest.AtVersion(1)); err != nil {
		t.Fatal(err)
	}
	srv.lintMu.Lock()
	defer srv.lintMu.Unlock()
	go func() {
		// Drawing a chain waits for the run (see TestCancelOverTheWire).
		_ = c.Call(ctx, protocol.MethodWorkspaceExecuteCommand, &protocol.ExecuteCommandParams{Command: showChainCommand,
			Arguments: []any{string(uri.File(manifest)), "/chains/0"}}, new(any))
	}()
	time.Sleep(50 * time.Millisecond) // the request is in
	b.Close()
	select {
	case err := <-served:
		if err == nil {
			t.Error("Serve returned nil for a client gone without shutdown")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve still running after the client died mid-request")
	}
}

// TestRequestFlood: a client that sends requests and reads no answer
// stops being read; the server does not queue a goroutine a request.
func TestRequestFlood(t *testing.T) {
	dir := copyExample(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	a, b := net.Pipe()
	defer b.Close()
	go func() { _ = Serve(ctx, a, Options{Env: testEnv(dir, &syncWriter{})}) }()
	wire := jsonrpc2.NewStream(b)
	before := runtime.NumGoroutine()
	go func() {
		for i := range int32(5000) {
			call, _ := jsonrpc2.NewCall(jsonrpc2.NewNumberID(i+1), "wop/unknown", nil)
			if _, err := wire.Write(ctx, call); err != nil {
				return
			}
		}
	}()
	time.Sleep(time.Second) // what the server reads in a second, nobody answering
	if n := runtime.NumGoroutine() - before; n > 2*maxInFlight {
		t.Errorf("%d goroutines more after a flood of requests", n)
	}
}
