// Package schema holds the OpenWOP and AgentFormat JSON Schemas embedded in
// the binary, compiles them once per process, and turns validation errors
// into one readable finding per real cause.
package schema

import (
	"embed"
	"fmt"
	"maps"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/regex"
	"github.com/wop-cli/wop/internal/spec"
)

//go:embed spec
var specFS embed.FS

// Base is the URL prefix of the OpenWOP v1 schemas' $ids.
const Base = "https://openwop.dev/spec/v1/"

// AgentFormatID is the $id of the embedded AgentFormat 1.0 schema.
const AgentFormatID = "https://agentformat.org/schema/1.0/agentformat-schema.json"

// kindFiles maps a pack manifest's `kind` to its schema's file name, the
// same under both trees' $id bases, in the order messages list the kinds.
// A kind absent here is unknown.
var kindFiles = []struct{ kind, file string }{
	{"node", "node-pack-manifest.schema.json"},
	{"workflow-chain", "workflow-chain-pack-manifest.schema.json"},
	{"prompt", "prompt-pack-manifest.schema.json"},
	{"artifact-type", "artifact-type-pack-manifest.schema.json"},
	{"card", "chat-card-pack-manifest.schema.json"},
	{"form-content", "form-content-pack-manifest.schema.json"},
	{"connection", "connection-pack-manifest.schema.json"},
	{"frontend-plugin", "frontend-plugin-manifest.schema.json"},
}

// v2OnlyKinds are the kinds whose schema only the v2 family has: the
// spec repository's v2 tree defines frontend-plugin packs (RFC 0117), and
// wop embeds no v1 copy.
var v2OnlyKinds = map[string]bool{"frontend-plugin": true}

// Kinds lists every pack kind wop validates, "node" first: the list an
// unknown kind's message offers.
func Kinds() []string {
	kinds := make([]string, len(kindFiles))
	for i, k := range kindFiles {
		kinds[i] = k.kind
	}
	return kinds
}

// OnlyInV2 reports whether kind has a schema in the v2 tree alone.
func OnlyInV2(kind string) bool { return v2OnlyKinds[kind] }

// ForKind returns the $id of the manifest schema for kind ("" means node)
// in the given tree (v1 unless tree is spec.V2). known is false for a kind
// OpenWOP does not define, and for a v2-only kind outside the v2 tree.
func ForKind(tree spec.Tree, kind string) (id string, known bool) {
	if kind == "" {
		kind = "node"
	}
	i := slices.IndexFunc(kindFiles, func(k struct{ kind, file string }) bool { return k.kind == kind })
	if i < 0 {
		return "", false
	}
	file := kindFiles[i].file
	if tree == spec.V2 {
		return spec.Base + file, true
	}
	if v2OnlyKinds[kind] {
		return "", false
	}
	return Base + file, true
}

// Set is the compiled, embedded schemas. The zero value is not usable; call
// Load. A Set is safe for concurrent use.
type Set struct {
	compiler *jsonschema.Compiler
	mu       sync.Mutex // guards compiler and compiled
	compiled map[string]*jsonschema.Schema

	docsMu sync.Mutex     // guards docs; taken inside mu (the loader), never around it
	docs   map[string]any // $id -> parsed schema document, parsed on first use

	// budget bounds the subschemas of documents from outside the binary
	// (NewSet): nil for the embedded schemas.
	budget *budget

	// agentless compiles the node manifest schemas for manifests without
	// agents (see Validate); nil for NewSet's and for agentless itself.
	agentless *Set
}

// Load prepares the embedded schemas: this package's v1 and AgentFormat
// schemas and internal/spec's v2 family and v1 connection schema. Nothing
// is parsed yet: a schema is parsed when a compile or a message first needs
// it (a lint of one pack needs two or three), and relative $refs between
// them resolve through the same table, never the network. A node manifest
// without agents is validated without compiling the agent schemas (see
// compileFor).
func Load() (*Set, error) {
	s := newEmbedded(embeddedLoader{})
	s.agentless = newEmbedded(embeddedLoader{docs: s, withoutAgents: true})
	return s, nil
}

// newEmbedded returns a Set whose compiler loads the embedded schemas
// through l, parsed by l.docs (the Set itself when nil).
func newEmbedded(l embeddedLoader) *Set {
	s := &Set{compiler: jsonschema.NewCompiler(), docs: map[string]any{}, compiled: map[string]*jsonschema.Schema{}}
	if l.docs == nil {
		l.docs = s
	}
	s.compiler.AssertFormat()
	s.compiler.UseLoader(l)
	s.compiler.UseRegexpEngine(lazyPattern)
	return s
}

// lazyPattern stands in for a pattern of an embedded schema and compiles it
// when it is first matched: a manifest meets few of its schema's patterns,
// and the library would otherwise compile every one twice per process (to
// check the metaschema's "regex" format, then to compile the schema).
// TestEmbeddedSchemasCompileEagerly holds every embedded pattern valid.
func lazyPattern(expr string) (jsonschema.Regexp, error) {
	return &pattern{expr: expr, re: regex.Lazy(expr)}, nil // a pointer: the library keys maps by Regexp
}

// pattern is an embedded schema's pattern, compiled on first use.
type pattern struct {
	expr string
	re   func() *regexp.Regexp
}

func (p *pattern) MatchString(s string) bool { return p.re().MatchString(s) }
func (p *pattern) String() string            { return p.expr }

// embeddedPath is where the schema with $id id is embedded;
// TestEmbeddedPathsMatchIDs holds every file to it.
func embeddedPath(id string) (string, bool) {
	switch {
	case id == AgentFormatID:
		return "spec/agentformat/agentformat-1.0.schema.json", true
	case strings.HasPrefix(id, Base) && !strings.Contains(strings.TrimPrefix(id, Base), "/"):
		return "spec/v1/" + strings.TrimPrefix(id, Base), true
	}
	return "", false
}

// embeddedIDs lists every embedded schema's $id (internal/spec's too),
// from the file names alone.
func embeddedIDs() []string {
	ids := []string{AgentFormatID}
	entries, _ := specFS.ReadDir("spec/v1")
	for _, e := range entries {
		if path.Ext(e.Name()) == ".json" {
			ids = append(ids, Base+e.Name())
		}
	}
	return append(ids, spec.SchemaIDs()...)
}

// embeddedBytes returns the embedded schema id as published: from this
// package's files, or from internal/spec's.
func embeddedBytes(id string) ([]byte, bool) {
	if p, ok := embeddedPath(id); ok {
		if raw, err := specFS.ReadFile(p); err == nil {
			return raw, true
		}
	}
	return spec.Schema(id)
}

// doc returns the embedded schema id, parsing it on first use; nil when
// there is none.
func (s *Set) doc(id string) (any, error) {
	s.docsMu.Lock()
	defer s.docsMu.Unlock()
	if d, ok := s.docs[id]; ok {
		return d, nil
	}
	raw, ok := embeddedBytes(id)
	if !ok {
		return nil, fmt.Errorf("%s: not an embedded schema", id)
	}
	d, err := decodeEmbedded(raw)
	if err != nil {
		return nil, fmt.Errorf("embedded schema %s: %w", id, err)
	}
	spec.Correct(id, d) // the documented corrections to stale copies
	s.docs[id] = d
	return d, nil
}

// decodeEmbedded decodes an embedded schema into the shape the library
// wants (jsonschema.UnmarshalJSON's), by jsonpos's scanner: encoding/json's
// Decode was a tenth of a one-pack lint. TestDecodeEmbeddedAsLibrary holds
// the two equal on every embedded schema.
func decodeEmbedded(raw []byte) (any, error) {
	d, err := jsonpos.Parse(raw)
	if err != nil {
		return nil, err
	}
	if len(d.Duplicates) > 0 {
		return nil, fmt.Errorf("member %q twice in %s", d.Duplicates[0].Name, d.Duplicates[0].Pointer)
	}
	return d.Root.Interface(), nil
}

// embeddedLoader serves the embedded schemas to the compiler by $id, each
// in the embedded dialect, and refuses every other URL.
type embeddedLoader struct {
	docs *Set // parses and keeps the documents
	// withoutAgents serves the node manifest schemas without the subschema
	// of their agents member (see withoutAgents).
	withoutAgents bool
}

func (l embeddedLoader) Load(url string) (any, error) {
	if url == embeddedDialect {
		return embeddedDialectDoc(), nil
	}
	d, err := l.docs.doc(url)
	if err != nil {
		return nil, err
	}
	d = inEmbeddedDialect(d)
	if l.withoutAgents && isNodeManifest(url) {
		d = withoutAgents(d)
	}
	return d, nil
}

// draft2020 is the $schema of every embedded schema as published.
const draft2020 = "https://json-schema.org/draft/2020-12/schema"

// embeddedDialect is the metaschema wop compiles its own schemas under: JSON
// Schema 2020-12 with only the vocabularies wop's schemas use. The library
// checks every document it compiles against its metaschema, and against the
// full 2020-12 one that check was half of compiling the embedded schemas,
// some 2 ms of every one-pack lint or build. The embedded schemas are pinned
// bytes that TestEmbeddedSchemasAreValid holds valid against the full
// metaschema, so the run-time check is pure cost; the library has no switch
// to skip it, but it checks a document only against the vocabularies its
// metaschema declares. The four left out cannot change a compiled schema
// here: meta-data is annotations only, formats are asserted whatever the
// vocabulary (AssertFormat), content keywords are asserted only with
// AssertContent, which wop does not set, and no embedded schema uses
// unevaluatedProperties or unevaluatedItems (if one did,
// TestEmbeddedDialectCompilesTheSame would fail). Pack schemas never see
// this dialect: CompilePack checks them against the full metaschema.
const embeddedDialect = "urn:wop:embedded-dialect:2020-12"

// embeddedDialectDoc is the metaschema document of embeddedDialect.
func embeddedDialectDoc() map[string]any {
	const vocab = "https://json-schema.org/draft/2020-12/vocab/"
	return map[string]any{
		"$schema": draft2020,
		"$id":     embeddedDialect,
		"$vocabulary": map[string]any{
			vocab + "core":       true,
			vocab + "applicator": true,
			vocab + "validation": true,
		},
	}
}

// inEmbeddedDialect returns the embedded schema d under embeddedDialect: a
// shallow copy with another $schema (d itself is shared with CompilePack
// and Document, which must see it as published).
func inEmbeddedDialect(d any) any {
	m, ok := d.(map[string]any)
	if !ok || m["$schema"] != draft2020 {
		return d
	}
	c := maps.Clone(m)
	c["$schema"] = embeddedDialect
	return c
}

// Default returns the process-wide Set, loaded on first use. The embedded
// schemas are fixed at build time, so a load error is a bug in wop.
var Default = sync.OnceValues(Load)

// Compile returns the compiled schema for id, compiling it on first use.
func (s *Set) Compile(id string) (*jsonschema.Schema, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if sch, ok := s.compiled[id]; ok {
		return sch, nil
	}
	if err := s.budget.refused(id); err != nil {
		return nil, err
	}
	sch, err := s.compiler.Compile(id)
	if err != nil {
		return nil, err
	}
	s.compiled[id] = sch
	return sch, nil
}

// isNodeManifest reports whether id is a node pack manifest schema, v1 or
// v2: the schemas whose agents member refers to the agent schemas.
func isNodeManifest(id string) bool {
	v1, _ := ForKind(spec.V1, "node")
	v2, _ := ForKind(spec.V2, "node")
	return id == v1 || id == v2
}

// withoutAgents returns a node manifest schema whose agents property
// accepts anything: compiled, it does not pull in the agent manifest and
// prompt-ref schemas (about a quarter of compiling it). For a manifest
// without an agents member it validates exactly as the published schema:
// "properties" applies a subschema only to a member that is present, and
// nothing else refers to that subschema (TestAgentsSubschemaOnlyByName).
// d is shared, so the path to the change is copied.
func withoutAgents(d any) any {
	m, ok := d.(map[string]any)
	if !ok {
		return d
	}
	props, ok := m["properties"].(map[string]any)
	if !ok || props["agents"] == nil {
		return d
	}
	m, props = maps.Clone(m), maps.Clone(props)
	props["agents"] = true
	m["properties"] = props
	return m
}

// compileFor compiles id for validating instance: for a manifest without
// agents, a node manifest schema is compiled without the agent schemas
// (withoutAgents), unless the full one is compiled already. A run that
// meets a node pack without agents before one with agents compiles that
// schema twice, once each way; a one-pack run compiles it once.
func (s *Set) compileFor(id string, instance any) (*jsonschema.Schema, error) {
	if s.agentless != nil && isNodeManifest(id) && !s.isCompiled(id) {
		if m, ok := instance.(map[string]any); ok {
			if _, has := m["agents"]; !has {
				return s.agentless.Compile(id)
			}
		}
	}
	return s.Compile(id)
}

// isCompiled reports whether id is compiled already.
func (s *Set) isCompiled(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.compiled[id]
	return ok
}

// Validate validates a decoded instance (see jsonpos.Value.Interface) against
// the schema id and returns one Problem per cause, sorted by pointer. A
// node manifest without agents is validated without compiling the agent
// schemas (compileFor), with the same problems.
func (s *Set) Validate(id string, instance any) ([]Problem, error) {
	sch, err := s.compileFor(id, instance)
	if err != nil {
		return nil, fmt.Errorf("compile %s: this is a bug in wop: %w", id, err)
	}
	verr := sch.Validate(instance)
	if verr == nil {
		return nil, nil
	}
	ve, ok := verr.(*jsonschema.ValidationError)
	if !ok {
		return nil, verr
	}
	return s.explain(ve, instance), nil
}

// Document returns the embedded schema document registered as id (nil if
// none), for callers that walk a schema's structure themselves.
func (s *Set) Document(id string) any {
	d, _ := s.doc(id)
	return d
}
