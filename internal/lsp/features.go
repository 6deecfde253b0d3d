package lsp

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/wop-cli/wop/internal/assist"
	"github.com/wop-cli/wop/internal/invocation"
	"github.com/wop-cli/wop/internal/lint"
	"github.com/wop-cli/wop/internal/lintrun"
	"github.com/wop-cli/wop/internal/report"
	"go.lsp.dev/protocol"
)

// maxAssistText bounds the documents hover, completion, definition and
// links read: past it (a generated file, a binary opened by mistake) they
// answer nothing, quickly. Diagnostics still come, under lint's ceilings.
const maxAssistText = 8 << 20

// assistDoc is an open document as internal/assist takes it, with its
// environment; ok is false for a document assist should not read.
func (s *Server) assistDoc(u protocol.DocumentURI) (assist.Env, assist.Doc, bool) {
	path, ok := pathOf(u)
	if !ok {
		return assist.Env{}, assist.Doc{}, false
	}
	text, open := s.text(path)
	if !open || len(text) > maxAssistText || bytes.IndexByte(text, 0) >= 0 {
		return assist.Env{}, assist.Doc{}, false
	}
	env := assist.Env{Open: s.text}
	if u, ok := s.unitOf(path); ok && u.pack != "" {
		env.PackDir = u.pack
		env.Catalog = s.catalogFor(u.pack)
	}
	return env, assist.Doc{Path: path, Text: text}, true
}

func (s *Server) hover(p *protocol.HoverParams) (*protocol.Hover, error) {
	path, ok := pathOf(p.TextDocument.URI)
	if !ok {
		return nil, nil
	}
	var parts []string
	var rng *protocol.Range
	seen := map[string]bool{}
	for _, f := range s.findingsOf(path) {
		if f.d.Rule == "" || seen[f.d.Rule] || !contains(f.rng, p.Position) {
			continue
		}
		seen[f.d.Rule] = true
		if md, ok := ruleHover(f.d.Rule, s.env.Invoked); ok {
			parts = append(parts, md)
			r := f.rng
			rng = &r
		}
	}
	if env, doc, ok := s.assistDoc(p.TextDocument.URI); ok {
		if md, span, ok := assist.Hover(env, doc, offsetOf(doc.Text, p.Position)); ok {
			parts = append([]string{md}, parts...)
			r := rangeOf(doc.Text, span.Start, span.End)
			rng = &r
		}
	}
	if len(parts) == 0 {
		return nil, nil
	}
	return &protocol.Hover{Contents: protocol.MarkupContent{Kind: protocol.Markdown, Value: strings.Join(parts, "\n\n---\n\n")}, Range: rng}, nil
}

// ruleHover is a finding's rule in a few lines of Markdown: its id,
// severity and summary, the first paragraph of why it exists, and a link
// to its page (docs/rules.md) with the command that prints all of it, as
// invoked would type it; the whole --explain text is too long for a hover.
func ruleHover(id string, invoked invocation.Name) (string, bool) {
	r := lint.All().Lookup(id)
	if r == nil {
		return "", false
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** (%s): %s", r.ID, r.Severity, invoked.Mentions(lintrun.Summary(r.Info())))
	if r.Deprecated != "" {
		fmt.Fprintf(&b, "\n\nDeprecated: %s", invoked.Mentions(r.Deprecated))
	} else if doc, err := lint.Explain(id); err == nil {
		if first, _, _ := strings.Cut(strings.TrimSpace(doc.Prose), "\n\n"); first != "" {
			b.WriteString("\n\n" + invoked.Mentions(first))
		}
	}
	fmt.Fprintf(&b, "\n\n[%s on the rules page](%s) · `%s` prints an example", r.ID, report.RuleDocURL(r.ID), invoked.Cmd("pack lint --explain "+r.ID))
	return b.String(), true
}

// contains reports whether pos is within r (its end included: the cursor
// just after a word still hovers it).
func contains(r protocol.Range, pos protocol.Position) bool {
	before := func(a, b protocol.Position) bool {
		return a.Line < b.Line || a.Line == b.Line && a.Character <= b.Character
	}
	return before(r.Start, pos) && before(pos, r.End)
}

var itemKinds = map[assist.ItemKind]protocol.CompletionItemKind{
	assist.KindProperty: protocol.CompletionItemKindProperty,
	assist.KindValue:    protocol.CompletionItemKindValue,
	assist.KindFile:     protocol.CompletionItemKindFile,
	assist.KindTypeID:   protocol.CompletionItemKindClass,
	assist.KindAgentID:  protocol.CompletionItemKindReference,
	assist.KindRule:     protocol.CompletionItemKindEnumMember,
}

func (s *Server) completion(p *protocol.CompletionParams) (*protocol.CompletionList, error) {
	list := &protocol.CompletionList{Items: []protocol.CompletionItem{}}
	env, doc, ok := s.assistDoc(p.TextDocument.URI)
	if !ok {
		return list, nil
	}
	items := assist.Complete(env, doc, offsetOf(doc.Text, p.Position))
	idx := newLines(doc.Text) // hundreds of items (license ids): one pass, not one per item
	for _, it := range items {
		item := protocol.CompletionItem{Label: it.Label, Detail: it.Detail, Kind: itemKinds[it.Kind], SortText: it.SortText,
			TextEdit: &protocol.TextEdit{Range: idx.rangeOf(it.Replace.Start, it.Replace.End), NewText: it.Insert}}
		if it.Doc != "" {
			item.Documentation = protocol.MarkupContent{Kind: protocol.Markdown, Value: it.Doc}
		}
		list.Items = append(list.Items, item)
	}
	return list, nil
}

func (s *Server) definition(p *protocol.DefinitionParams) ([]protocol.Location, error) {
	out := []protocol.Location{}
	env, doc, ok := s.assistDoc(p.TextDocument.URI)
	if !ok {
		return out, nil
	}
	for _, loc := range assist.Definition(env, doc, offsetOf(doc.Text, p.Position)) {
		out = append(out, protocol.Location{URI: uriOf(loc.Path), Range: s.rangeIn(loc.Path, loc.Span)})
	}
	return out, nil
}

// rangeIn is a span of another file as a range: the open buffer's or the
// disk's text (never through a link); the file's start when unreadable.
func (s *Server) rangeIn(path string, span assist.Span) protocol.Range {
	text, err := s.textOrDisk(path)
	if err != nil {
		return protocol.Range{}
	}
	return rangeOf(text, min(span.Start, len(text)), min(span.End, len(text)))
}

func (s *Server) documentLinks(p *protocol.DocumentLinkParams) ([]protocol.DocumentLink, error) {
	out := []protocol.DocumentLink{}
	env, doc, ok := s.assistDoc(p.TextDocument.URI)
	if !ok {
		return out, nil
	}
	idx := newLines(doc.Text)
	for _, l := range assist.Links(env, doc) {
		out = append(out, protocol.DocumentLink{Range: idx.rangeOf(l.Span.Start, l.Span.End), Target: uriOf(l.Target)})
	}
	return out, nil
}
