package schema

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/wop-cli/wop/internal/jsonpos"
)

// Document is a schema shipped in a pack, registered under URL (its $id, or
// a synthetic URL when it has none).
type Document struct {
	URL string
	Doc any // decoded with UseNumber (see jsonpos.Value.Interface)
	// Source, when set, is the parsed document, and Doc may be left nil:
	// CompilePack then derives Doc (Source.Interface()) only for the
	// library, when the fast check cannot settle the pack on its own.
	Source *jsonpos.Value
}

// decoded returns the document as the library takes it.
func (d Document) decoded() any {
	if d.Doc == nil && d.Source != nil {
		return d.Source.Interface()
	}
	return d.Doc
}

// CompileError is one reason a pack schema does not compile; a schema may
// have several, each at its own place.
type CompileError struct {
	Pointer string // pointer into the schema document, "" when unknown
	Message string
}

// CompilePack compiles each document as JSON Schema 2020-12 with the pack's
// other schemas and the embedded OpenWOP schemas available to $ref, and
// nothing else: no file or network access. It returns the failures by URL,
// each document's every metaschema violation at once (not only the first,
// so a schema is not fixed one round at a time).
//
// The compiler finds each subschema by a linear scan of those it holds, so
// its time grows with the square of their number (100k properties: minutes).
// Packs whose schemas hold more than MaxSubschemas objects together are not
// compiled; the largest document gets a CompileError saying so.
func (s *Set) CompilePack(docs []Document) map[string][]CompileError {
	if err, url, ok := overBudget(docs); !ok {
		return map[string][]CompileError{url: {err}}
	}
	if surelyCompile(docs) {
		return map[string][]CompileError{}
	}
	decoded := make([]Document, len(docs))
	for i, d := range docs {
		decoded[i] = Document{URL: d.URL, Doc: d.decoded()}
	}
	return s.compilePack(decoded)
}

// compilePack is CompilePack by the library alone: it checks each document
// against the metaschema, compiles it and says why one fails.
func (s *Set) compilePack(docs []Document) map[string][]CompileError {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	c.UseLoader(jsonschema.SchemeURLLoader{}) // refuse every URL not added below
	// The embedded schemas are added only when a pack schema refers to one:
	// registering fifteen documents per pack is a third of the cost.
	if refersTo(docs, specPrefix) {
		for _, id := range embeddedIDs() {
			if doc, err := s.doc(id); err == nil {
				_ = c.AddResource(id, doc) // valid by construction: wop's tests compile each
			}
		}
	}
	failed := map[string][]CompileError{}
	for _, d := range docs {
		if err := c.AddResource(d.URL, d.Doc); err != nil {
			failed[d.URL] = []CompileError{{Message: err.Error()}}
		}
	}
	for _, d := range docs {
		if _, bad := failed[d.URL]; bad {
			continue
		}
		if _, err := c.Compile(d.URL); err != nil {
			failed[d.URL] = s.describeCompileError(d.URL, d.Doc, err)
		}
	}
	return failed
}

// describeCompileError says why the document at url does not compile: every
// metaschema violation (by pointer), or the one other failure.
func (s *Set) describeCompileError(url string, doc any, err error) []CompileError {
	var sve *jsonschema.SchemaValidationError
	if errors.As(err, &sve) {
		var ve *jsonschema.ValidationError
		if errors.As(sve.Err, &ve) {
			var out []CompileError
			for _, p := range s.explain(ve, doc) {
				out = append(out, CompileError{Pointer: p.Pointer, Message: "not a valid 2020-12 schema: " + p.Message})
			}
			if len(out) > 0 {
				return out
			}
		}
	}
	var lue *jsonschema.LoadURLError
	if errors.As(err, &lue) {
		return []CompileError{{Message: fmt.Sprintf("$ref %s cannot be resolved offline: ship the referenced schema in the pack with that $id", lue.URL)}}
	}
	msg := err.Error()
	msg = strings.ReplaceAll(msg, url, "this schema")
	return []CompileError{{Message: msg}}
}

// specPrefix starts the $id of every embedded OpenWOP schema, v1 and v2.
const specPrefix = "https://openwop.dev/spec/"

// refersTo reports whether any document has a "$ref" starting with prefix.
func refersTo(docs []Document, prefix string) bool {
	var walk func(v any) bool
	walk = func(v any) bool {
		switch v := v.(type) {
		case map[string]any:
			if ref, ok := v["$ref"].(string); ok && strings.HasPrefix(ref, prefix) {
				return true
			}
			for _, x := range v {
				if walk(x) {
					return true
				}
			}
		case []any:
			for _, x := range v {
				if walk(x) {
					return true
				}
			}
		}
		return false
	}
	for _, d := range docs {
		if walk(d.Doc) {
			return true
		}
	}
	return false
}

// NewSet returns an empty Set for schemas that come from outside the
// binary (a catalog's node type schemas): documents are added with Add and
// compiled on first use. A $ref to a document not added goes to load (nil:
// it fails); the Set itself never touches files or the network.
//
// Those documents come from a registry or a folder wop does not control, so
// they share one MaxSubschemas budget, as a pack's own schemas do: a
// document (added or loaded through a $ref) that would take the total over
// it is refused, and compiling it fails saying so, instead of a hostile
// registry making lint run for minutes.
func NewSet(load func(url string) (any, error)) *Set {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	b := &budget{left: MaxSubschemas, over: map[string]error{}}
	loader := jsonschema.SchemeURLLoader{}
	if load != nil {
		counted := loaderFunc(func(url string) (any, error) {
			doc, err := load(url)
			if err != nil {
				return nil, err
			}
			if err := b.take(url, doc); err != nil {
				return nil, err
			}
			return doc, nil
		})
		loader["http"], loader["https"] = counted, counted
	}
	c.UseLoader(loader)
	return &Set{compiler: c, docs: map[string]any{}, compiled: map[string]*jsonschema.Schema{}, budget: b}
}

// budget is what is left of MaxSubschemas for a Set's outside documents,
// and the documents refused for going over it.
type budget struct {
	mu   sync.Mutex
	left int
	over map[string]error
}

// take charges doc's objects to the budget, or refuses doc.
func (b *budget) take(url string, doc any) error {
	if b == nil {
		return nil
	}
	n := countObjects(doc)
	b.mu.Lock()
	defer b.mu.Unlock()
	if n > b.left {
		err := fmt.Errorf("schema %s too large to check: %d subschemas, over what is left of the limit of %d for a catalog's schemas together", url, n, MaxSubschemas)
		b.over[url] = err
		return err
	}
	b.left -= n
	return nil
}

// refused returns why url was refused, or nil.
func (b *budget) refused(url string) error {
	if b == nil {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.over[url]
}

// loaderFunc adapts a function to jsonschema.URLLoader.
type loaderFunc func(url string) (any, error)

func (f loaderFunc) Load(url string) (any, error) { return f(url) }

// Add registers doc under its URL; adding a URL twice keeps the first.
func (s *Set) Add(doc Document) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.docsMu.Lock() // inside mu, as the loader takes it
	_, dup := s.docs[doc.URL]
	s.docsMu.Unlock()
	if dup {
		return nil
	}
	if err := s.budget.take(doc.URL, doc.Doc); err != nil {
		return err
	}
	if err := s.compiler.AddResource(doc.URL, doc.Doc); err != nil {
		return err
	}
	s.docsMu.Lock()
	s.docs[doc.URL] = doc.Doc
	s.docsMu.Unlock()
	return nil
}

// MaxSubschemas bounds the JSON objects in a pack's schemas, all documents
// together, that lint hands to the compiler: at this size a compile takes
// about a second; real packs hold a few hundred.
const MaxSubschemas = 10000

// overBudget counts the objects of every document (each may be a
// subschema); counting is linear, so it costs little next to parsing.
func overBudget(docs []Document) (CompileError, string, bool) {
	total, biggest, biggestURL := 0, -1, ""
	for _, d := range docs {
		n := countObjects(d.Doc)
		if d.Doc == nil && d.Source != nil {
			n = countValueObjects(d.Source)
		}
		total += n
		if n > biggest {
			biggest, biggestURL = n, d.URL
		}
	}
	if total <= MaxSubschemas {
		return CompileError{}, "", true
	}
	return CompileError{Message: fmt.Sprintf("schema too large to check: %d subschemas, limit %d (all the pack's schemas together); split it or share definitions through $defs and $ref", total, MaxSubschemas)}, biggestURL, false
}

// countValueObjects is countObjects of v.Interface(), without decoding it.
func countValueObjects(v *jsonpos.Value) int {
	n := 0
	if v.Kind == jsonpos.Object {
		n = 1
		for _, m := range v.Members {
			n += countValueObjects(m.Value)
		}
	}
	for _, it := range v.Items {
		n += countValueObjects(it)
	}
	return n
}

// countObjects counts the objects in a decoded document.
func countObjects(v any) int {
	switch v := v.(type) {
	case map[string]any:
		n := 1
		for _, x := range v {
			n += countObjects(x)
		}
		return n
	case []any:
		n := 0
		for _, x := range v {
			n += countObjects(x)
		}
		return n
	}
	return 0
}
