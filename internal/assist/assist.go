// Package assist answers what an editor asks about a position in a pack's
// files: what a member means (Hover), what may be written there
// (Complete), where what it names is defined (Definition) and which of a
// document's strings name other files (Links). It reads pack.json (v1 and
// v2), JSON Schema files, *.agf.yaml and .wop.yaml, from the editor's
// buffer: the buffer is often not valid while typing, so every answer is
// computed from a tolerant reading (jsonpos.ParseLoose), and any bytes give
// an answer (maybe none), never a panic.
//
// It knows no protocol: offsets are bytes of Doc.Text, and turning them into
// an editor's lines and UTF-16 columns is the language server's job.
package assist

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/wop-cli/wop/internal/agf"
	"github.com/wop-cli/wop/internal/catalog"
	"github.com/wop-cli/wop/internal/config"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/safefile"
)

// Doc is one document as the editor holds it.
type Doc struct {
	Path string // absolute
	Text []byte
}

// Env is what the answers draw on besides the document.
type Env struct {
	// PackDir is the pack holding the document ("" when the document is in
	// no pack).
	PackDir string
	// Catalog is what other packs define; nil when none is known.
	Catalog *catalog.Catalog
	// Open, when set, returns the editor's buffer of another file (an
	// absolute path) when it is open, so that a definition's span is in
	// the bytes the editor shows; files not open are read from disk.
	Open func(path string) (text []byte, ok bool)
}

// read returns the text of another file: the editor's buffer, or the
// disk's, of at most max bytes and never through a final link.
func (env Env) read(path string, max int64) ([]byte, bool) {
	if env.Open != nil {
		if text, ok := env.Open(path); ok {
			return text, true
		}
	}
	raw, err := safefile.Read(path, safefile.Options{Max: max})
	return raw, err == nil
}

// Span is a range of bytes [Start, End) of a document.
type Span struct{ Start, End int }

// ItemKind says what a completion item is, so an editor can pick an icon.
type ItemKind int

// The kinds of completion items.
const (
	KindProperty ItemKind = iota + 1 // a member name
	KindValue                        // an enum value, severity or license id
	KindFile                         // a pack-relative file path
	KindTypeID                       // a node typeId (or a tool naming one)
	KindAgentID                      // an agentId
	KindRule                         // a lint rule id
)

// Item is one completion: Insert replaces the bytes of Replace. SortText,
// when set, orders the items in an editor that sorts them (by Label
// otherwise).
type Item struct {
	Label, Detail, Doc, Insert string
	Kind                       ItemKind
	Replace                    Span
	SortText                   string
}

// Location is a place in a file.
type Location struct {
	Path string // absolute
	Span Span   // in the target file's bytes
}

// Link is a span of a document that names another file.
type Link struct {
	Span   Span
	Target string // absolute path of the file
}

// docKind is which of the files wop reads a document is.
type docKind int

const (
	otherDoc    docKind = iota
	manifestDoc         // pack.json
	jsonDoc             // another JSON file: a schema, an eval suite
	agfDoc              // *.agf.yaml
	configDoc           // .wop.yaml
)

// kindOf tells a document's kind by its name.
func kindOf(path string) docKind {
	base := filepath.Base(path)
	switch {
	case base == pack.ManifestName:
		return manifestDoc
	case slices.Contains(config.FileNames, base):
		return configDoc
	case agf.IsFile(base):
		return agfDoc
	case strings.HasSuffix(base, ".json"):
		return jsonDoc
	}
	return otherDoc
}

// maxText bounds the documents answered: beyond it (20 times the
// registry's ceiling for a manifest) no question is worth reading the
// buffer for, and a hostile one costs nothing.
const maxText = 8 << 20

// Hover returns what is known about the member name or value at off, as
// markdown, and the span it describes. ok is false when there is nothing
// to say.
func Hover(env Env, doc Doc, off int) (markdown string, span Span, ok bool) {
	if off < 0 || off > len(doc.Text) || len(doc.Text) > maxText {
		return "", Span{}, false
	}
	switch kindOf(doc.Path) {
	case manifestDoc:
		return hoverManifest(env, newManifest(doc), off)
	case configDoc:
		return hoverConfig(doc, off)
	case agfDoc:
		return hoverAgf(doc, off)
	}
	return "", Span{}, false
}

// Complete returns what may be written at off.
func Complete(env Env, doc Doc, off int) []Item {
	if off < 0 || off > len(doc.Text) || len(doc.Text) > maxText {
		return nil
	}
	switch kindOf(doc.Path) {
	case manifestDoc:
		return completeManifest(env, newManifest(doc), off)
	case configDoc:
		return completeConfig(doc, off)
	}
	return nil
}

// Definition returns where what the document names at off is defined: the
// file a ref names, the target of a schema's $ref, the node type a chain
// node's typeId names, the file of an agent's sub-agent.
func Definition(env Env, doc Doc, off int) []Location {
	if off < 0 || off > len(doc.Text) || len(doc.Text) > maxText {
		return nil
	}
	switch kindOf(doc.Path) {
	case manifestDoc:
		return defineInManifest(env, newManifest(doc), off)
	case jsonDoc:
		return defineRef(env, doc, off)
	case agfDoc:
		return defineSource(env, doc, off)
	}
	return nil
}

// Links returns the spans of the document that name files which exist:
// file refs of pack.json, $refs to other files of a schema, sub-agent
// sources of an *.agf.yaml.
func Links(env Env, doc Doc) []Link {
	if len(doc.Text) > maxText {
		return nil
	}
	switch kindOf(doc.Path) {
	case manifestDoc:
		return manifestLinks(env, newManifest(doc))
	case jsonDoc:
		return refLinks(env, doc)
	case agfDoc:
		return sourceLinks(env, doc)
	}
	return nil
}
