package lsp

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"unicode/utf8"

	"github.com/wop-cli/wop/internal/lint"
	"github.com/wop-cli/wop/internal/safefile"
	"go.lsp.dev/protocol"
)

// codeAction is LSP's CodeAction with a WorkspaceEdit that may create a
// file (protocol's type holds only text edits).
type codeAction struct {
	Title       string                  `json:"title"`
	Kind        protocol.CodeActionKind `json:"kind"`
	Diagnostics []protocol.Diagnostic   `json:"diagnostics,omitempty"`
	IsPreferred bool                    `json:"isPreferred,omitempty"`
	Edit        *workspaceEdit          `json:"edit"`
}

type workspaceEdit struct {
	Changes         map[protocol.DocumentURI][]protocol.TextEdit `json:"changes,omitempty"`
	DocumentChanges []any                                        `json:"documentChanges,omitempty"`
}

type createFile struct {
	Kind string               `json:"kind"` // "create"
	URI  protocol.DocumentURI `json:"uri"`
}

// codeActions offers, for each finding in the range or the context, the
// fix it carries when it has one (lint's mechanical fix, or the
// replacement its "did you mean" proposes: the edit `wop pack lint --fix`
// makes, format kept), and for a rule's finding in a pack "ignore this
// finding" as a .wop.yaml entry.
func (s *Server) codeActions(ctx context.Context, p *protocol.CodeActionParams) ([]codeAction, error) {
	out := []codeAction{}
	path, ok := pathOf(p.TextDocument.URI)
	if !ok {
		return out, nil
	}
	u, ok := s.unitOf(path)
	if !ok {
		return out, nil
	}
	for _, f := range s.findingsOf(path) {
		if !overlaps(f.rng, p.Range) && !inContext(f, p.Context.Diagnostics) {
			continue
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if a, ok := s.fixAction(f); ok {
			out = append(out, a)
		}
		if f.d.Rule == "" || u.pack == "" {
			continue // a configuration's own mistake, or a file of no pack: nothing to ignore
		}
		if a, ok := s.ignoreAction(u, f); ok {
			out = append(out, a)
		}
	}
	return out, nil
}

// inContext says whether the client named f among the request's
// diagnostics: Neovim's code_action sends the cursor as the range and the
// line's diagnostics as the context, and a finding on the line's value
// must be offered with the cursor on its key.
func inContext(f finding, ds []protocol.Diagnostic) bool {
	for _, d := range ds {
		if d.Code == f.d.Rule && d.Range == f.rng && d.Message == f.d.Message && (d.Source == "" || d.Source == "wop") {
			return true
		}
	}
	return false
}

func overlaps(a, b protocol.Range) bool {
	return contains(a, b.Start) || contains(a, b.End) || contains(b, a.Start)
}

// fixAction is the fix the finding carries, applied to the file's text
// (the open buffer, else the disk) by lint.ApplyFix, the path --fix takes.
// A finding whose text was edited since it was made offers none.
func (s *Server) fixAction(f finding) (codeAction, bool) {
	if f.d.Fix.IsZero() {
		return codeAction{}, false
	}
	old, err := s.textOrDisk(f.path)
	if err != nil {
		return codeAction{}, false
	}
	updated, ok, err := lint.ApplyFix(old, f.d.Fix)
	if err != nil || !ok || bytes.Equal(old, updated) {
		if err != nil {
			s.log.Printf("fix %s: %v", f.d.Rule, err)
		}
		return codeAction{}, false
	}
	edit := &workspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{uriOf(f.path): {minimalEdit(old, updated)}}}
	return codeAction{Title: fmt.Sprintf("Replace %q with %q", f.d.Fix.Old, f.d.Fix.New), Kind: protocol.QuickFix,
		Diagnostics: []protocol.Diagnostic{f.protocol()}, IsPreferred: true, Edit: edit}, true
}

// ignoreAction adds the finding's file to its rule's ignore list in the
// pack's own .wop.yaml (made when the pack has none). A configuration
// above the pack is not edited: the entry would ignore the file in every
// pack below it. An enforced rule (lint.Rule.Enforced) gets none.
func (s *Server) ignoreAction(u unit, f finding) (codeAction, bool) {
	if r := lint.Lookup(f.d.Rule); r != nil && r.Enforced {
		return codeAction{}, false // build and publish refuse it whatever .wop.yaml says
	}
	settings, err := s.settingsFor(u.pack)
	rel, relErr := filepath.Rel(u.pack, f.path)
	if err != nil || relErr != nil {
		return codeAction{}, false
	}
	target := settings.ConfigPath
	if target == "" {
		target = filepath.Join(u.pack, ".wop.yaml")
	} else if filepath.Dir(target) != u.pack {
		return codeAction{}, false
	}
	old, exists := s.text(target)
	if !exists {
		data, err := safefile.Read(target, safefile.Options{Max: 1 << 20})
		if err != nil && !os.IsNotExist(err) {
			return codeAction{}, false
		}
		old, exists = data, err == nil
	}
	updated, err := addIgnore(old, f.d.Rule, filepath.ToSlash(rel))
	if err != nil {
		s.log.Printf("ignore %s: %s: %v", f.d.Rule, target, err)
		return codeAction{}, false
	}
	edit := &workspaceEdit{}
	if exists {
		edit.Changes = map[protocol.DocumentURI][]protocol.TextEdit{uriOf(target): {minimalEdit(old, updated)}}
	} else {
		edit.DocumentChanges = []any{createFile{Kind: "create", URI: uriOf(target)},
			protocol.TextDocumentEdit{TextDocument: protocol.OptionalVersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: uriOf(target)}},
				Edits: []protocol.TextEdit{{NewText: string(updated)}}}}
	}
	return codeAction{Title: fmt.Sprintf("Ignore %s in %s (.wop.yaml)", f.d.Rule, filepath.ToSlash(rel)), Kind: protocol.QuickFix,
		Diagnostics: []protocol.Diagnostic{f.protocol()}, Edit: edit}, true
}

// minimalEdit is the one edit turning old into new: the bytes between
// their common prefix and suffix, cut at character boundaries.
func minimalEdit(old, new []byte) protocol.TextEdit {
	p := 0
	for p < len(old) && p < len(new) && old[p] == new[p] {
		p++
	}
	for p > 0 && p < len(old) && !utf8.RuneStart(old[p]) {
		p--
	}
	sfx := 0
	for sfx < len(old)-p && sfx < len(new)-p && old[len(old)-1-sfx] == new[len(new)-1-sfx] {
		sfx++
	}
	for sfx > 0 && !utf8.RuneStart(old[len(old)-sfx]) {
		sfx--
	}
	return protocol.TextEdit{Range: rangeOf(old, p, len(old)-sfx), NewText: string(new[p : len(new)-sfx])}
}
