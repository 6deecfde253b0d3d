package lsp

import (
	"context"
	"path/filepath"

	"github.com/wop-cli/wop/internal/safefile"
	"go.lsp.dev/protocol"
)

// Server name and version, as initialize reports them.
const serverName = "wop"

// initialize answers what the server does. Workspace folders need no
// set-up: every answer is found from a file's own path (its pack, its
// .wop.yaml, its catalog), so any number of roots, added or removed at
// any time, work alike.
func (s *Server) initialize(p *protocol.InitializeParams) (*protocol.InitializeResult, error) {
	w := p.Capabilities.Workspace
	s.mu.Lock()
	s.watch = w != nil && w.DidChangeWatchedFiles != nil && w.DidChangeWatchedFiles.DynamicRegistration
	s.initialized = true
	s.mu.Unlock()
	return &protocol.InitializeResult{
		Capabilities: protocol.ServerCapabilities{
			TextDocumentSync: &protocol.TextDocumentSyncOptions{OpenClose: true, Change: protocol.TextDocumentSyncKindIncremental,
				Save: &protocol.SaveOptions{IncludeText: false}},
			HoverProvider:          true,
			CompletionProvider:     &protocol.CompletionOptions{TriggerCharacters: []string{`"`, "/", ".", ":", " "}},
			DefinitionProvider:     true,
			DocumentLinkProvider:   &protocol.DocumentLinkOptions{},
			CodeActionProvider:     &protocol.CodeActionOptions{CodeActionKinds: []protocol.CodeActionKind{protocol.QuickFix}},
			CodeLensProvider:       &protocol.CodeLensOptions{}, // codelens.go
			ExecuteCommandProvider: &protocol.ExecuteCommandOptions{Commands: []string{showChainCommand, chainSVGCommand}},
			Workspace: &protocol.ServerCapabilitiesWorkspace{WorkspaceFolders: &protocol.ServerCapabilitiesWorkspaceFolders{
				Supported: true, ChangeNotifications: true}},
		},
		ServerInfo: &protocol.ServerInfo{Name: serverName, Version: s.env.Version},
	}, nil
}

// registerWatchers asks the client to report files created, changed and
// deleted on disk, when it said it can be asked (Neovim 0.7 warns the
// user of a request it did not offer to take); without, only saves and
// open documents are seen.
func (s *Server) registerWatchers(ctx context.Context) {
	s.mu.Lock()
	watch := s.watch
	s.mu.Unlock()
	if !watch {
		return
	}
	params := &protocol.RegistrationParams{Registrations: []protocol.Registration{{
		ID: "wop-watch", Method: protocol.MethodWorkspaceDidChangeWatchedFiles,
		RegisterOptions: protocol.DidChangeWatchedFilesRegistrationOptions{Watchers: []protocol.FileSystemWatcher{{GlobPattern: "**/*"}}},
	}}}
	go func() { // a reply may never come: never block the handler on it
		if _, err := s.conn.Call(ctx, protocol.MethodClientRegisterCapability, params, nil); err != nil {
			s.log.Printf("watching files: %v", err)
		}
	}()
}

func (s *Server) didOpen(p *protocol.DidOpenTextDocumentParams) {
	path, ok := pathOf(p.TextDocument.URI)
	if !ok {
		return
	}
	s.mu.Lock()
	s.docs[path] = &document{version: p.TextDocument.Version, text: []byte(p.TextDocument.Text)}
	s.mu.Unlock()
	s.changed(path, false)
}

// contentChange is a didChange event: without a range the text is the
// whole document (protocol's type cannot tell the two apart).
type contentChange struct {
	Range *protocol.Range `json:"range"`
	Text  string          `json:"text"`
}

type didChangeParams struct {
	TextDocument   protocol.VersionedTextDocumentIdentifier `json:"textDocument"`
	ContentChanges []contentChange                          `json:"contentChanges"`
}

func (s *Server) didChange(p *didChangeParams) {
	path, ok := pathOf(p.TextDocument.URI)
	if !ok {
		return
	}
	s.mu.Lock()
	doc := s.docs[path]
	if doc == nil {
		s.mu.Unlock()
		s.log.Printf("didChange for %s, which is not open", path)
		return
	}
	text := newEditBuffer(doc.text)
	for _, c := range p.ContentChanges {
		if c.Range == nil {
			text = newEditBuffer([]byte(c.Text))
			continue
		}
		if err := text.apply(*c.Range, c.Text); err != nil {
			s.log.Printf("%s: %v", path, err)
		}
	}
	doc.text, doc.version = text.Bytes(), p.TextDocument.Version
	s.mu.Unlock()
	s.changed(path, false)
}

func (s *Server) didClose(p *protocol.DidCloseTextDocumentParams) {
	path, ok := pathOf(p.TextDocument.URI)
	if !ok {
		return
	}
	s.mu.Lock()
	delete(s.docs, path)
	s.mu.Unlock()
	s.changed(path, false) // back to what the disk gives
}

func (s *Server) didSave(p *protocol.DidSaveTextDocumentParams) {
	if path, ok := pathOf(p.TextDocument.URI); ok {
		s.changedOnDisk(path)
	}
}

func (s *Server) didChangeWatchedFiles(p *protocol.DidChangeWatchedFilesParams) {
	for _, e := range p.Changes {
		if path, ok := pathOf(e.URI); ok {
			s.changedOnDisk(path)
		}
	}
}

// didChangeFolders forgets what a removed folder's units show (unless a
// document of theirs is still open) and clears it in the editor.
func (s *Server) didChangeFolders(p *protocol.DidChangeWorkspaceFoldersParams) {
	for _, f := range p.Event.Removed {
		root, ok := pathOf(protocol.DocumentURI(f.URI))
		if !ok {
			continue
		}
		s.mu.Lock()
		var gone []unit
		for u := range s.unitFindings {
			if under(u.anchor(), root) && !s.hasOpen(u) {
				gone = append(gone, u)
				delete(s.dirty, u)
			}
		}
		s.mu.Unlock()
		for _, u := range gone {
			s.publish(context.Background(), u, nil, nil)
			s.mu.Lock()
			delete(s.unitFindings, u)
			s.mu.Unlock()
		}
	}
}

// overlay is every open document's text, by path: what lint reads instead
// of the disk.
func (s *Server) overlay() map[string][]byte {
	overlay, _ := s.snapshot()
	return overlay
}

// snapshot is the overlay and each open document's version.
func (s *Server) snapshot() (map[string][]byte, map[string]int32) {
	s.mu.Lock()
	defer s.mu.Unlock()
	overlay := make(map[string][]byte, len(s.docs))
	versions := make(map[string]int32, len(s.docs))
	for path, d := range s.docs {
		overlay[path], versions[path] = d.text, d.version
	}
	return overlay, versions
}

// text is an open document's text, or nil.
func (s *Server) text(path string) ([]byte, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if d, ok := s.docs[path]; ok {
		return d.text, true
	}
	return nil, false
}

// textOrDisk is path's open buffer, else its file on disk (never through
// a link, at most maxPositionRead bytes).
func (s *Server) textOrDisk(path string) ([]byte, error) {
	if text, open := s.text(path); open {
		return text, nil
	}
	return safefile.Read(filepath.Clean(path), safefile.Options{Max: maxPositionRead})
}

// under reports whether path is dir or inside it.
func under(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !filepath.IsAbs(rel) && (len(rel) < 3 || rel[:3] != ".."+string(filepath.Separator))
}
