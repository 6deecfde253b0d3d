// Package lsp is wop's language server: LSP 3.17 over a byte stream (an
// editor starts `wop lsp` and talks on its stdin and stdout). Diagnostics
// come from internal/lintrun on the editor's unsaved buffers, so the
// editor and `wop pack lint` compute one verdict by one path; quick fixes
// are lint's own fixes; hover, completion, definition and document links
// come from internal/assist. JSON-RPC framing and the protocol's types are
// go.lsp.dev/jsonrpc2 and go.lsp.dev/protocol (what buf's language server
// uses): per-request contexts, $/cancelRequest, no framing written here.
package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"runtime/debug"
	"sync"
	"time"

	"github.com/wop-cli/wop/internal/lintrun"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// DefaultDebounce is how long the server waits after the last change of a
// burst (changes less than this apart) before it lints: a burst of
// keystrokes costs one run. A change after a quiet spell (typing, at a
// keystroke every 100 ms or so) is linted at once: waiting would only
// delay its diagnostics.
const DefaultDebounce = 10 * time.Millisecond

// fileCacheSize bounds the bytes of pack files kept between runs.
const fileCacheSize = 64 << 20

// maxInFlight bounds the messages read and not yet answered.
const maxInFlight = 64

// maxDelayFactor bounds how long steady typing can put a run off.
const maxDelayFactor = 5

// Options configure a server.
type Options struct {
	// Env is what lint runs with; its ErrOut is the server's log (editors
	// show a server's stderr as its output).
	Env *lintrun.Env
	// Debounce is the quiet time before a lint run of a burst of changes
	// (DefaultDebounce if 0).
	Debounce time.Duration
}

// Server is one editor session.
type Server struct {
	opt  Options
	env  *lintrun.Env
	log  *log.Logger
	conn jsonrpc2.Conn

	mu    sync.Mutex
	docs  map[string]*document // open documents, by absolute path
	dirty map[unit]bool        // units to lint at the next run
	// unitFindings is what each unit's last run showed, by file: a file
	// shows every unit's findings about it.
	unitFindings map[unit]map[string][]finding
	shutdown     bool
	lastChange   time.Time // when the last change came
	burst        bool      // it came within the debounce of the one before
	initialized  bool      // initialize was answered
	watch        bool      // the client takes a didChangeWatchedFiles registration

	lintMu runLock            // lintrun runs one at a time
	loader *lintrun.Catalogs  // catalogs stay open across runs (lintMu)
	files  *lintrun.FileCache // and the packs' files, while unchanged on disk
	cache  *packCache         // what requests read instead of the disk or a run

	// holdRun, when set, is called before each lint run with the run lock
	// held: a test holds a run there to show requests do not wait for it.
	holdRun func()

	wake chan struct{}
}

// document is an open buffer (s.docs holds them by absolute path).
type document struct {
	version int32
	text    []byte
}

// Serve runs a server on rwc until the client exits, the stream ends or
// ctx is cancelled. It returns nil after a clean shutdown and exit.
func Serve(ctx context.Context, rwc io.ReadWriteCloser, opt Options) error {
	return newServer(opt).serve(ctx, rwc)
}

// serve is Serve with the server made (a test holds its locks).
func (s *Server) serve(ctx context.Context, rwc io.ReadWriteCloser) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s.conn = jsonrpc2.NewConn(jsonrpc2.NewStream(guarded{newFrameGuard(rwc), rwc}))
	handler, canceller := jsonrpc2.CancelHandler(jsonrpc2.AsyncHandler(jsonrpc2.ReplyHandler(s.recovering(s.dispatch))))
	exited := make(chan struct{})
	var exitOnce sync.Once
	inFlight := make(chan struct{}, maxInFlight)
	// The handler never returns an error: that would stop the connection
	// (and jsonrpc2 v0.10.0 panics storing a second error of another type).
	s.conn.Go(ctx, func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		switch req.Method() {
		case "$/cancelRequest": // here, not behind the request it cancels
			var p struct{ ID json.RawMessage }
			if json.Unmarshal(req.Params(), &p) == nil {
				canceller(parseID(p.ID))
			}
		case "exit":
			exitOnce.Do(func() { close(exited) })
		default:
			// Each message holds a slot until its reply is written: a
			// client that sends faster than it reads stops being read
			// instead of queueing a goroutine a message.
			select {
			case inFlight <- struct{}{}:
			case <-ctx.Done():
				return nil
			}
			var release sync.Once
			// jsonrpc2 writes nothing on a done context, and a request's
			// context is done once cancelled: its RequestCancelled reply
			// would never leave.
			reply := func(ctx context.Context, result any, err error) error {
				defer release.Do(func() { <-inFlight })
				return reply(context.WithoutCancel(ctx), result, err)
			}
			if err := handler(ctx, reply, req); err != nil {
				s.log.Printf("%s: %v", req.Method(), err)
			}
		}
		return nil
	})
	go s.lintLoop(ctx)
	var gone error
	select {
	case <-exited:
	case <-s.conn.Done(): // the client went away (stdin closed) or sent what is not LSP
		gone = s.conn.Err()
	case <-ctx.Done():
		gone = ctx.Err()
	}
	cancel()
	s.conn.Close()
	s.mu.Lock()
	clean := s.shutdown
	s.mu.Unlock()
	if fe := (*FrameError)(nil); errors.As(gone, &fe) {
		return fmt.Errorf("stopped reading the client: %w", fe)
	}
	if !clean {
		if gone != nil {
			return fmt.Errorf("the client left without shutdown (%v)", gone)
		}
		return errors.New("the client left without shutdown")
	}
	return nil
}

func newServer(opt Options) *Server {
	if opt.Debounce <= 0 {
		opt.Debounce = DefaultDebounce
	}
	// Requests make settings while a run may be warning too: one writer
	// at a time.
	env := *opt.Env
	env.ErrOut = &lockedWriter{w: opt.Env.ErrOut}
	return &Server{opt: opt, env: &env, log: log.New(env.ErrOut, "wop lsp: ", log.LstdFlags|log.Lmsgprefix),
		docs: map[string]*document{}, dirty: map[unit]bool{}, unitFindings: map[unit]map[string][]finding{},
		lintMu: make(runLock, 1), loader: newLoader(), files: lintrun.NewFileCache(fileCacheSize), cache: newPackCache(),
		wake: make(chan struct{}, 1)}
}

// lockedWriter serializes writes to w.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// guarded is the client's stream read through a frameGuard.
type guarded struct {
	io.Reader
	io.WriteCloser
}

// parseID reads a request id, a number or a string.
func parseID(raw json.RawMessage) jsonrpc2.ID {
	var n int32
	if json.Unmarshal(raw, &n) == nil {
		return jsonrpc2.NewNumberID(n)
	}
	var s string
	_ = json.Unmarshal(raw, &s)
	return jsonrpc2.NewStringID(s)
}

// recovering turns a panic in a handler into a logged error, a message the
// user sees, and an error reply: one bad request never stops the server.
func (s *Server) recovering(h jsonrpc2.Handler) jsonrpc2.Handler {
	return func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) (err error) {
		replied := false
		once := func(ctx context.Context, result any, err error) error {
			replied = true
			return reply(ctx, result, err)
		}
		defer func() {
			if r := recover(); r != nil {
				s.log.Printf("panic in %s: %v\n%s", req.Method(), r, debug.Stack())
				s.showMessage(protocol.MessageTypeError, fmt.Sprintf("wop: internal error in %s (%v); the server goes on. Please report it with the log.", req.Method(), r))
				if !replied {
					err = reply(ctx, nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "internal error: %v", r))
				}
			}
		}()
		return h(ctx, once, req)
	}
}

// showMessage asks the editor to show text; errors are only logged (the
// client may be gone).
func (s *Server) showMessage(typ protocol.MessageType, text string) {
	if err := s.conn.Notify(context.Background(), protocol.MethodWindowShowMessage, &protocol.ShowMessageParams{Type: typ, Message: text}); err != nil {
		s.log.Printf("showMessage: %v", err)
	}
}

// dispatch routes one request or notification.
func (s *Server) dispatch(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	if s.isShutdown() && req.Method() != protocol.MethodShutdown {
		if _, call := req.(*jsonrpc2.Call); call {
			return reply(ctx, nil, jsonrpc2.Errorf(jsonrpc2.InvalidRequest, "the server is shut down"))
		}
		return reply(ctx, nil, nil)
	}
	if !s.isInitialized() && req.Method() != protocol.MethodInitialize {
		// LSP: before initialize a request is refused and a notification
		// dropped (a didOpen then would lint with nothing set up).
		if _, call := req.(*jsonrpc2.Call); call {
			return reply(ctx, nil, jsonrpc2.Errorf(serverNotInitialized, "%s before initialize", req.Method()))
		}
		return reply(ctx, nil, nil)
	}
	var result any
	var err error
	switch req.Method() {
	case protocol.MethodInitialize:
		result, err = call(req, s.initialize)
	case protocol.MethodInitialized:
		s.registerWatchers(ctx)
	case protocol.MethodShutdown:
		s.mu.Lock()
		s.shutdown = true
		s.mu.Unlock()
	case protocol.MethodTextDocumentDidOpen:
		err = notify(s.log, req, s.didOpen)
	case protocol.MethodTextDocumentDidChange:
		err = notify(s.log, req, s.didChange)
	case protocol.MethodTextDocumentDidClose:
		err = notify(s.log, req, s.didClose)
	case protocol.MethodTextDocumentDidSave:
		err = notify(s.log, req, s.didSave)
	case protocol.MethodWorkspaceDidChangeWatchedFiles:
		err = notify(s.log, req, s.didChangeWatchedFiles)
	case protocol.MethodWorkspaceDidChangeWorkspaceFolders:
		err = notify(s.log, req, s.didChangeFolders)
	case protocol.MethodTextDocumentHover:
		result, err = call(req, s.hover)
	case protocol.MethodTextDocumentCompletion:
		result, err = call(req, s.completion)
	case protocol.MethodTextDocumentDefinition:
		result, err = call(req, s.definition)
	case protocol.MethodTextDocumentDocumentLink:
		result, err = call(req, s.documentLinks)
	case protocol.MethodTextDocumentCodeAction:
		result, err = callCtx(ctx, req, s.codeActions)
	case protocol.MethodTextDocumentCodeLens: // codelens.go
		result, err = call(req, s.codeLenses)
	case protocol.MethodWorkspaceExecuteCommand:
		result, err = callCtx(ctx, req, s.executeCommand)
	default:
		if _, isCall := req.(*jsonrpc2.Call); isCall {
			return reply(ctx, nil, jsonrpc2.Errorf(jsonrpc2.MethodNotFound, "method not supported: %s", req.Method()))
		}
		return reply(ctx, nil, nil) // an unknown notification is ignored
	}
	if ctx.Err() != nil { // whatever the handler made of it
		result, err = nil, jsonrpc2.NewError(requestCancelled, "request cancelled")
	}
	return reply(ctx, result, err)
}

// runLock is a mutex a cancelled request can stop waiting for: a lint
// run of a large pack holds it for a while.
type runLock chan struct{}

func (l runLock) Lock()   { l <- struct{}{} }
func (l runLock) Unlock() { <-l }

// TryLock locks l if it is free.
func (l runLock) TryLock() bool {
	select {
	case l <- struct{}{}:
		return true
	default:
		return false
	}
}

// LockCtx locks l, or gives up when ctx ends first.
func (l runLock) LockCtx(ctx context.Context) error {
	select {
	case l <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// LSP's codes for a request the client cancelled and one that came
// before initialize.
const (
	requestCancelled     jsonrpc2.Code = -32800
	serverNotInitialized jsonrpc2.Code = -32002
)

func (s *Server) isInitialized() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.initialized
}

func (s *Server) isShutdown() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.shutdown
}

// call decodes a request's parameters and calls fn.
func call[P, R any](req jsonrpc2.Request, fn func(*P) (R, error)) (any, error) {
	var p P
	if err := json.Unmarshal(req.Params(), &p); err != nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: %v", req.Method(), err)
	}
	return fn(&p)
}

// callCtx is call for handlers that heed cancellation.
func callCtx[P, R any](ctx context.Context, req jsonrpc2.Request, fn func(context.Context, *P) (R, error)) (any, error) {
	return call(req, func(p *P) (R, error) { return fn(ctx, p) })
}

// notify decodes a notification's parameters and calls fn; a notification
// has no reply, so a problem is only logged.
func notify[P any](lg *log.Logger, req jsonrpc2.Request, fn func(*P)) error {
	var p P
	if err := json.Unmarshal(req.Params(), &p); err != nil {
		lg.Printf("%s: %v", req.Method(), err)
		return nil
	}
	fn(&p)
	return nil
}
