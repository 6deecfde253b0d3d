// Package lsptest is a language-server client for tests: it drives a
// server over a stream (a pipe to internal/lsp in process, or the standard
// I/O of a running `wop lsp`) and keeps what the server publishes.
package lsptest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// Client is one editor session's client side.
type Client struct {
	conn jsonrpc2.Conn

	mu       sync.Mutex
	changed  chan struct{} // closed and replaced on every publication
	diags    map[protocol.DocumentURI]protocol.PublishDiagnosticsParams
	messages []protocol.ShowMessageParams
	calls    []string // the methods of the server's requests, in order
	shown    []string // the URIs window/showDocument asked to show
	versions map[protocol.DocumentURI]int32
}

// New starts a client on rwc.
func New(ctx context.Context, rwc io.ReadWriteCloser) *Client {
	c := &Client{conn: jsonrpc2.NewConn(jsonrpc2.NewStream(rwc)), changed: make(chan struct{}),
		diags: map[protocol.DocumentURI]protocol.PublishDiagnosticsParams{}, versions: map[protocol.DocumentURI]int32{}}
	c.conn.Go(ctx, c.handle)
	return c
}

// handle takes what the server sends: diagnostics, messages, and
// requests a client answers with null.
func (c *Client) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	c.mu.Lock()
	switch req.Method() {
	case protocol.MethodTextDocumentPublishDiagnostics:
		var p protocol.PublishDiagnosticsParams
		if err := json.Unmarshal(req.Params(), &p); err == nil {
			c.diags[p.URI] = p
		}
	case protocol.MethodClientRegisterCapability:
		c.calls = append(c.calls, req.Method())
	case "window/showDocument":
		var p protocol.ShowDocumentParams
		if err := json.Unmarshal(req.Params(), &p); err == nil {
			c.shown = append(c.shown, string(p.URI))
		}
	case protocol.MethodWindowShowMessage:
		var p protocol.ShowMessageParams
		if err := json.Unmarshal(req.Params(), &p); err == nil {
			c.messages = append(c.messages, p)
		}
	}
	close(c.changed)
	c.changed = make(chan struct{})
	c.mu.Unlock()
	// A handler's error would stop the connection (and jsonrpc2 v0.10.0
	// panics storing a second one of another type): a failed reply only
	// means the server is gone, which the next read says.
	_ = reply(ctx, nil, nil)
	return nil
}

// Call sends a request and decodes its result into result.
func (c *Client) Call(ctx context.Context, method string, params, result any) error {
	_, err := c.conn.Call(ctx, method, params, result)
	return err
}

// Notify sends a notification.
func (c *Client) Notify(ctx context.Context, method string, params any) error {
	return c.conn.Notify(ctx, method, params)
}

// Initialize runs the handshake for a workspace rooted at root, for a
// client that watches files when the server asks.
func (c *Client) Initialize(ctx context.Context, root string) (*protocol.InitializeResult, error) {
	return c.InitializeWith(ctx, &protocol.InitializeParams{WorkspaceFolders: []protocol.WorkspaceFolder{{URI: string(uri.File(root)), Name: "root"}},
		Capabilities: protocol.ClientCapabilities{Workspace: &protocol.WorkspaceClientCapabilities{
			DidChangeWatchedFiles: &protocol.DidChangeWatchedFilesWorkspaceClientCapabilities{DynamicRegistration: true}}}})
}

// InitializeWith runs the handshake with params.
func (c *Client) InitializeWith(ctx context.Context, params *protocol.InitializeParams) (*protocol.InitializeResult, error) {
	var res protocol.InitializeResult
	if err := c.Call(ctx, protocol.MethodInitialize, params, &res); err != nil {
		return nil, err
	}
	return &res, c.Notify(ctx, protocol.MethodInitialized, &protocol.InitializedParams{})
}

// Open opens path with text (version 1).
func (c *Client) Open(ctx context.Context, path, text string) error {
	u := uri.File(path)
	c.mu.Lock()
	c.versions[u] = 1
	c.mu.Unlock()
	return c.Notify(ctx, protocol.MethodTextDocumentDidOpen, &protocol.DidOpenTextDocumentParams{
		TextDocument: protocol.TextDocumentItem{URI: u, LanguageID: "json", Version: 1, Text: text}})
}

// Edit is one change: Range nil replaces the whole text.
type Edit struct {
	Range *protocol.Range `json:"range,omitempty"`
	Text  string          `json:"text"`
}

// Change sends edits to an open document and returns its new version.
func (c *Client) Change(ctx context.Context, path string, edits ...Edit) (int32, error) {
	u := uri.File(path)
	c.mu.Lock()
	c.versions[u]++
	v := c.versions[u]
	c.mu.Unlock()
	params := map[string]any{
		"textDocument":   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: u}, Version: v},
		"contentChanges": edits,
	}
	return v, c.Notify(ctx, protocol.MethodTextDocumentDidChange, params)
}

// Close closes an open document.
func (c *Client) Close(ctx context.Context, path string) error {
	return c.Notify(ctx, protocol.MethodTextDocumentDidClose, &protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(path)}})
}

// Diagnostics waits until the diagnostics last published for path satisfy
// ok, and returns them.
func (c *Client) Diagnostics(ctx context.Context, path string, ok func(protocol.PublishDiagnosticsParams) bool) (protocol.PublishDiagnosticsParams, error) {
	u := uri.File(path)
	for {
		c.mu.Lock()
		p, seen := c.diags[u]
		wait := c.changed
		c.mu.Unlock()
		if seen && ok(p) {
			return p, nil
		}
		select {
		case <-ctx.Done():
			return p, fmt.Errorf("diagnostics for %s: %w (last published: %+v)", path, ctx.Err(), p)
		case <-wait:
		}
	}
}

// AtVersion accepts the diagnostics published for version v.
func AtVersion(v int32) func(protocol.PublishDiagnosticsParams) bool {
	return func(p protocol.PublishDiagnosticsParams) bool { return p.Version == uint32(v) }
}

// Registrations returns the client/registerCapability requests so far
// (their methods).
func (c *Client) Registrations() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.calls...)
}

// Messages returns the window/showMessage notifications so far.
func (c *Client) Messages() []protocol.ShowMessageParams {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]protocol.ShowMessageParams(nil), c.messages...)
}

// Shown returns the URIs the server asked the client to show
// (window/showDocument), in order.
func (c *Client) Shown() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.shown...)
}

// Shutdown asks the server to shut down and exit.
func (c *Client) Shutdown(ctx context.Context) error {
	if err := c.Call(ctx, protocol.MethodShutdown, nil, nil); err != nil {
		return err
	}
	return c.Notify(ctx, protocol.MethodExit, nil)
}

// Done is closed when the connection ends.
func (c *Client) Done() <-chan struct{} { return c.conn.Done() }
