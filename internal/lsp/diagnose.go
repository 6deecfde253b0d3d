package lsp

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/wop-cli/wop/internal/assist"
	"github.com/wop-cli/wop/internal/config"
	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/lint"
	"github.com/wop-cli/wop/internal/lintrun"
	"github.com/wop-cli/wop/internal/report"
	"github.com/wop-cli/wop/internal/safefile"
	"go.lsp.dev/protocol"
)

// maxPositionRead bounds a file read from disk only to place findings in
// it (lint's own ceilings are lower).
const maxPositionRead = 64 << 20

// finding is one diagnostic as shown: lint's finding, where it is in the
// file's text, and the file it is about when that is another one.
type finding struct {
	d       diag.Diagnostic // Rule is "" for a problem that is no rule's (a config or load error)
	path    string
	rng     protocol.Range
	related string // a file the finding is about, when not its own
}

func newLoader() *lintrun.Catalogs { return lintrun.NewCatalogs(false, false) }

// lintLoop lints the dirty units, at once after a quiet spell, once
// changes settle in a burst, until ctx ends.
func (s *Server) lintLoop(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.wake:
		}
		s.mu.Lock()
		burst := s.burst
		s.mu.Unlock()
		if burst {
			s.settle(ctx)
		}
		s.mu.Lock()
		units := s.dirty
		s.dirty = map[unit]bool{}
		s.mu.Unlock()
		overlay, versions := s.snapshot()
		for _, u := range sortedUnits(units) {
			if ctx.Err() != nil {
				return
			}
			s.lintUnit(ctx, u, overlay, versions)
		}
	}
}

// settle waits until no change came for the debounce time (at most
// maxDelayFactor times it in all).
func (s *Server) settle(ctx context.Context) {
	deadline := time.Now().Add(maxDelayFactor * s.opt.Debounce)
	t := time.NewTimer(s.opt.Debounce)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.wake:
			if time.Now().Before(deadline) {
				t.Reset(s.opt.Debounce)
			}
		case <-t.C:
			return
		}
	}
}

func sortedUnits(set map[unit]bool) []unit {
	var out []unit
	for u := range set {
		out = append(out, u)
	}
	slices.SortFunc(out, func(a, b unit) int { return strings.Compare(a.pack+"\x00"+a.loose, b.pack+"\x00"+b.loose) })
	return out
}

// lintUnit lints one unit and publishes the result; a panic is logged and
// shown, and the loop goes on.
func (s *Server) lintUnit(ctx context.Context, u unit, overlay map[string][]byte, versions map[string]int32) {
	defer func() {
		if r := recover(); r != nil {
			s.log.Printf("panic linting %s: %v\n%s", u.anchor(), r, debug.Stack())
			s.showMessage(protocol.MessageTypeError, fmt.Sprintf("wop: internal error linting %s (%v); the server goes on. Please report it with the log.", u.anchor(), r))
		}
	}()
	s.publish(ctx, u, s.diagnose(ctx, u, overlay), versions)
}

// diagnose is what lint says about a unit with the overlay's contents, by
// file: the same lintrun.Run that `wop pack lint` calls.
func (s *Server) diagnose(ctx context.Context, u unit, overlay map[string][]byte) map[string][]finding {
	s.lintMu.Lock()
	defer s.lintMu.Unlock()
	if s.holdRun != nil {
		s.holdRun()
	}
	out := map[string][]finding{}
	if u.pack == "" && isConfig(u.loose) {
		// A configuration above the packs: its own mistakes (the packs it
		// configures are linted as their documents are).
		settings, err := lintrun.SettingsFor(s.env, u.loose, filepath.Dir(u.loose), lint.Options{}, lintrun.NewSettingsMemo(), overlay)
		if err != nil {
			s.addRunError(out, u, err)
		} else {
			s.addConfigWarnings(out, lintrun.OverrideWarnings(s.env, settings))
		}
		placeAll(out, overlay)
		return out
	}
	o := lintrun.Options{Paths: []string{u.pack}, NoCache: true, Overlay: overlay, Loader: s.loader, Files: s.files}
	if u.pack == "" {
		o.Paths, o.Changed = []string{u.loose}, true
	}
	res, err := lintrun.Run(ctx, s.env, o)
	if u.pack != "" {
		s.recordCatalog(u.pack) // what hover and completion judge by, now the run has opened it
	}
	if err != nil {
		s.addRunError(out, u, err)
		placeAll(out, overlay)
		return out
	}
	for _, d := range res.Diags {
		// Shown as the user runs wop ("npx wop pack build --key"), as
		// the text report does; res keeps lint's own words.
		d.Message = s.env.Invoked.Mentions(d.Message)
		path := filepath.FromSlash(d.File)
		if _, open := overlay[path]; !open && !regularFile(s.env.Abs(path)) {
			path, d = u.anchor(), onAnchor(d, u.pack, path)
		}
		out[path] = append(out[path], finding{d: d, path: path})
	}
	s.addConfigWarnings(out, res.ConfigWarnings)
	for _, e := range res.LoadErrs {
		out[u.anchor()] = append(out[u.anchor()], finding{d: diag.Diagnostic{Severity: diag.Error, Message: e.Error()}, path: u.anchor()})
	}
	placeAll(out, overlay)
	return out
}

// regularFile reports whether path is a regular file, not followed through
// a link: an editor opens the file a diagnostic names to show it, and a
// FIFO would block it for good, a device (/dev/zero) fill its memory.
func regularFile(path string) bool {
	fi, err := os.Lstat(path)
	return err == nil && fi.Mode().IsRegular()
}

// onAnchor is a finding about a file that is no regular file (a link, a
// FIFO, a device) moved to the unit's anchor (pack.json): its message
// names the file, its place is the anchor's first line.
func onAnchor(d diag.Diagnostic, pack, path string) diag.Diagnostic {
	if rel, err := filepath.Rel(pack, path); err == nil && pack != "" {
		path = filepath.ToSlash(rel)
	}
	d.Message = path + ": " + d.Message
	d.Start, d.Pointer = diag.Position{}, ""
	return d
}

// addConfigWarnings shows a configuration's entries that hold for lint
// only at those entries (lint prints them).
func (s *Server) addConfigWarnings(out map[string][]finding, warnings []diag.Diagnostic) {
	for _, d := range warnings {
		path := s.env.Abs(filepath.FromSlash(d.File))
		out[path] = append(out[path], finding{d: d, path: path})
	}
}

// addRunError shows why a unit could not be linted: a configuration's
// mistakes on the configuration, each at its place; anything else on the
// unit's anchor.
func (s *Server) addRunError(out map[string][]finding, u unit, err error) {
	var ce *config.Error
	if errors.As(err, &ce) {
		path := s.env.Abs(ce.File)
		for _, p := range ce.Problems {
			msg := p.Message
			if p.Path != "" {
				msg = p.Path + ": " + msg
			}
			d := diag.Diagnostic{Severity: diag.Error, File: path, Start: diag.Position{Line: p.Line, Column: p.Column}, Message: msg, Fix: p.Fix}
			out[path] = append(out[path], finding{d: d, path: path})
		}
		return
	}
	if errors.Is(err, context.Canceled) {
		return
	}
	a := u.anchor()
	out[a] = append(out[a], finding{d: diag.Diagnostic{Severity: diag.Error, File: a, Message: err.Error()}, path: a})
}

// placeAll gives every finding its range in its file's text: the overlay's
// or the disk's. Each file is read, parsed and indexed once, however many
// findings it has.
func placeAll(out map[string][]finding, overlay map[string][]byte) {
	for path, fs := range out {
		text, ok := overlay[path]
		if !ok {
			text, _ = safefile.Read(path, safefile.Options{Max: maxPositionRead})
		}
		var doc *jsonpos.Doc
		if strings.HasSuffix(path, ".json") {
			doc, _ = jsonpos.Parse(text)
		}
		idx := newLines(text)
		for i := range fs {
			fs[i].rng = findingRange(idx, doc, fs[i].d)
			fs[i].related = relatedFile(path, doc, fs[i].d)
		}
	}
}

// findingRange is where a finding is: from its start to the end of the
// JSON value or member name there, else to the end of its line; a finding
// about the whole file covers its first line.
func findingRange(idx *lines, doc *jsonpos.Doc, d diag.Diagnostic) protocol.Range {
	if d.Start.Line == 0 {
		return idx.rangeOf(0, trimmedLineEnd(idx.text, 0))
	}
	start := idx.lintOffset(d.Start.Line, max(d.Start.Column, 1))
	end := -1
	switch {
	case d.Rule == "json-invalid":
		// The text does not parse: the mistake is the one character there
		// (a stray comma, the byte encoding/json stopped at).
		end = syntaxEnd(idx.text, start)
	case doc != nil:
		end = spanEnd(doc.Src, doc.Root, start)
	}
	if end < start {
		end = trimmedLineEnd(idx.text, start)
	}
	return idx.rangeOf(start, end)
}

// syntaxEnd is the end of the character at off, within its line (off
// itself at the line's end).
func syntaxEnd(text []byte, off int) int {
	if off >= len(text) || text[off] == '\n' || text[off] == '\r' {
		return off
	}
	_, n := utf8.DecodeRune(text[off:])
	return off + n
}

// trimmedLineEnd is the end of off's line without trailing blanks (never
// before off).
func trimmedLineEnd(text []byte, off int) int {
	end := lineEnd(text, off)
	for end > off && (text[end-1] == ' ' || text[end-1] == '\t' || text[end-1] == '\r') {
		end--
	}
	return end
}

// spanEnd is the end of the value starting at off, or of the member name
// whose opening quote is at off; -1 when none does.
func spanEnd(src []byte, v *jsonpos.Value, off int) int {
	if v == nil || off < v.Start || off >= v.End {
		return -1
	}
	if v.Start == off {
		return v.End
	}
	for _, m := range v.Members {
		if m.NameAt == off {
			return stringEnd(src, off)
		}
		if e := spanEnd(src, m.Value, off); e >= 0 {
			return e
		}
	}
	for _, it := range v.Items {
		if e := spanEnd(src, it, off); e >= 0 {
			return e
		}
	}
	return -1
}

// stringEnd is the offset past the JSON string whose quote is at off.
func stringEnd(src []byte, off int) int {
	for i := off + 1; i < len(src); i++ {
		switch src[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(src)
}

// relatedFile is the pack file a finding in a JSON file names at its
// pointer (a ref to a prompt or schema), so the editor can link to it.
func relatedFile(path string, doc *jsonpos.Doc, d diag.Diagnostic) string {
	if doc == nil || d.Pointer == "" {
		return ""
	}
	v := doc.Lookup(d.Pointer)
	if v == nil || v.Kind != jsonpos.String || v.Str == "" || strings.Contains(v.Str, "://") || filepath.IsAbs(v.Str) {
		return ""
	}
	// Never a file outside the pack, up the tree or through a link (a
	// linked directory included).
	target, ok := assist.PackFile(filepath.Dir(path), v.Str)
	if !ok {
		return ""
	}
	return target
}

// publish records a unit's findings and sends every file whose findings
// changed (a file no longer named gets an empty list), naming the version
// of each open document the findings are about.
func (s *Server) publish(ctx context.Context, u unit, byFile map[string][]finding, versions map[string]int32) {
	s.mu.Lock()
	old := s.unitFindings[u]
	s.unitFindings[u] = byFile
	var paths []string
	for p := range old {
		paths = append(paths, p)
	}
	for p := range byFile {
		if _, ok := old[p]; !ok {
			paths = append(paths, p)
		}
	}
	s.mu.Unlock()
	for p := range versions { // an open document of the unit hears even "nothing found"
		if v, ok := s.unitOf(p); ok && v == u {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	paths = slices.Compact(paths)
	for _, p := range paths {
		s.publishFile(ctx, p, versions)
	}
}

// findingsOf is what every unit shows on path, each finding once: the
// packs a .wop.yaml above them configures each report its entries that
// hold for lint only.
func (s *Server) findingsOf(path string) []finding {
	s.mu.Lock()
	defer s.mu.Unlock()
	type key struct {
		rng                 protocol.Range
		sev                 diag.Severity
		rule, message, file string
	}
	var out []finding
	seen := map[key]bool{}
	for _, byFile := range s.unitFindings {
		for _, f := range byFile[path] {
			key := key{f.rng, f.d.Severity, f.d.Rule, f.d.Message, f.d.File}
			if !seen[key] {
				seen[key] = true
				out = append(out, f)
			}
		}
	}
	return out
}

func (s *Server) publishFile(ctx context.Context, path string, versions map[string]int32) {
	fs := s.findingsOf(path)
	diags := make([]protocol.Diagnostic, 0, len(fs))
	for _, f := range fs {
		diags = append(diags, f.protocol())
	}
	params := &protocol.PublishDiagnosticsParams{URI: uriOf(path), Diagnostics: diags}
	if v, ok := versions[path]; ok {
		params.Version = uint32(max(v, 0))
	}
	if err := s.conn.Notify(ctx, protocol.MethodTextDocumentPublishDiagnostics, params); err != nil {
		s.log.Printf("publishDiagnostics %s: %v", path, err)
	}
}

// protocol is the finding as LSP says it.
func (f finding) protocol() protocol.Diagnostic {
	pd := protocol.Diagnostic{Range: f.rng, Severity: severityOf(f.d.Severity), Source: "wop", Message: f.d.Message}
	if f.d.Rule != "" {
		pd.Code = f.d.Rule
		pd.CodeDescription = &protocol.CodeDescription{Href: protocol.URI(report.RuleDocURL(f.d.Rule))}
	}
	if f.related != "" {
		pd.RelatedInformation = []protocol.DiagnosticRelatedInformation{{
			Location: protocol.Location{URI: uriOf(f.related)}, Message: "the file this finding is about"}}
	}
	return pd
}

func severityOf(s diag.Severity) protocol.DiagnosticSeverity {
	switch s {
	case diag.Error:
		return protocol.DiagnosticSeverityError
	case diag.Warning:
		return protocol.DiagnosticSeverityWarning
	}
	return protocol.DiagnosticSeverityInformation
}
