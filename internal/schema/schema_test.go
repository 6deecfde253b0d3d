package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/spec"
)

func validate(t *testing.T, id, src string) []Problem {
	t.Helper()
	s, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	return validateIn(t, s, id, src)
}

func validateIn(t *testing.T, s *Set, id, src string) []Problem {
	t.Helper()
	d, err := jsonpos.Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	ps, err := s.Validate(id, d.Root.Interface())
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

const nodeHead = `"name":"community.acme.demo","version":"1.0.0","engines":{"openwop":">=1.1.0 <2.0.0"},`

func TestReadableProblems(t *testing.T) {
	node, _ := ForKind(spec.V1, "")
	agent := `"agentId":"community.acme.demo.a","persona":"A","modelClass":"general"`
	tests := []struct {
		name string
		src  string
		want []Problem
	}{
		{"valid agent pack", `{` + nodeHead + `"runtime":{"language":"remote","entry":"pack.json"},"agents":[{` + agent + `,"systemPrompt":"x"}]}`, nil},
		{"neither nodes nor agents", `{` + nodeHead + `"runtime":{"language":"remote","entry":"pack.json"}}`,
			[]Problem{{Pointer: "", Message: "set at least one of nodes or agents", Keyword: "anyOf", Names: []string{"nodes", "agents"}}}},
		{"both prompts", `{` + nodeHead + `"runtime":{"language":"remote","entry":"pack.json"},"agents":[{` + agent + `,"systemPrompt":"x","systemPromptRef":"p.md"}]}`,
			[]Problem{{Pointer: "/agents/0", Message: "set exactly one of systemPrompt or systemPromptRef", Keyword: "oneOf", Names: []string{"systemPrompt", "systemPromptRef"}}}},
		{"no prompt", `{` + nodeHead + `"runtime":{"language":"remote","entry":"pack.json"},"agents":[{` + agent + `}]}`,
			[]Problem{{Pointer: "/agents/0", Message: "set exactly one of systemPrompt or systemPromptRef", Keyword: "oneOf", Names: []string{"systemPrompt", "systemPromptRef"}}}},
		{"typo", `{` + nodeHead + `"runtime":{"language":"remote","entry":"pack.json"},"agents":[{` + agent + `,"systemPrompt":"x","toolAllowList":[]}]}`,
			[]Problem{{Pointer: "/agents/0/toolAllowList", OnName: true, Keyword: "additionalProperties", Message: `unknown property "toolAllowList"; did you mean "toolAllowlist"?`, Meant: "toolAllowlist", Sure: true}}},
		{"enum typo", `{` + nodeHead + `"runtime":{"language":"remote","entry":"pack.json"},"agents":[{"agentId":"community.acme.demo.a","persona":"A","modelClass":"reasonin","systemPrompt":"x"}]}`,
			[]Problem{{Pointer: "/agents/0/modelClass", Keyword: "enum", Message: `"reasonin" is not allowed here; did you mean "reasoning"? (allowed: "reasoning", "writing", "coding", "research", "classification", "general")`, Meant: "reasoning", Sure: true}}},
		{"category flow", `{` + nodeHead + `"runtime":{"language":"javascript","entry":"index.mjs"},"nodes":[{"typeId":"community.acme.x","version":"1.0.0","category":"flow","role":"pure"}]}`,
			[]Problem{{Pointer: "/nodes/0/category", Keyword: "enum", Message: `"flow" is not allowed here; use one of "chat", "control", "data", "canvas", "coordination", "integration"`}}},
		{"missing runtime", `{` + nodeHead + `"agents":[{` + agent + `,"systemPrompt":"x"}]}`,
			[]Problem{{Pointer: "", Message: `missing required property "runtime"`, Keyword: "required", Names: []string{"runtime"}}}},
		{"bad uri format", `{` + nodeHead + `"homepage":"not a uri","runtime":{"language":"remote","entry":"pack.json"},"agents":[{` + agent + `,"systemPrompt":"x"}]}`,
			[]Problem{{Pointer: "/homepage", Message: `'not a uri' is not valid uri: invalid URI`}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := validate(t, node, tt.src)
			if tt.name == "bad uri format" {
				if len(got) != 1 || got[0].Pointer != "/homepage" {
					t.Fatalf("got %+v", got)
				}
				return
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestEveryKindSchemaCompiles(t *testing.T) {
	s, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range Kinds() {
		for _, tree := range []spec.Tree{spec.V1, spec.V2} {
			id, known := ForKind(tree, k)
			if !known && tree == spec.V1 && OnlyInV2(k) {
				continue
			}
			if _, err := s.Compile(id); err != nil {
				t.Errorf("kind %s (%s): %v", k, tree, err)
			}
		}
	}
	if _, err := s.Compile(AgentFormatID); err != nil {
		t.Errorf("agentformat: %v", err)
	}
}

func TestModelClasses(t *testing.T) {
	got, err := ModelClasses()
	if err != nil {
		t.Fatal(err)
	}
	if len(got) < 2 || got[0] != "reasoning" || !slices.Contains(got, "general") {
		t.Errorf("ModelClasses() = %v", got)
	}
}

// TestEmbeddedPathsMatchIDs: every embedded schema is found by its $id
// (the loader parses schemas on demand by that table) and listed for pack
// schemas that $ref them.
// TestEmbeddedSchemasCompileEagerly compiles every manifest schema as the
// library does by default, each pattern compiled (and checked against the
// "regex" format) up front: the embedded Set defers patterns to first use
// (lazyPattern), which is safe only while every one of them is valid.
// TestEmbeddedSchemasAreValid compiles every embedded schema as published,
// against the full 2020-12 metaschema and with every pattern compiled: wop
// compiles them at run time in embeddedDialect, which checks less, and with
// lazy patterns, which never fail at compile time.
func TestEmbeddedSchemasAreValid(t *testing.T) {
	s, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	c.UseLoader(loaderFunc(s.doc))
	for _, id := range embeddedIDs() {
		if _, err := c.Compile(id); err != nil {
			t.Errorf("%s: %v", id, err)
		}
	}
}

// TestEmbeddedDialectCompilesTheSame holds embeddedDialect to its promise:
// every embedded schema compiles to the same schema in it as in full 2020-12.
func TestEmbeddedDialectCompilesTheSame(t *testing.T) {
	s, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	published, trusted := jsonschema.NewCompiler(), jsonschema.NewCompiler()
	published.UseLoader(loaderFunc(s.doc))
	trusted.UseLoader(embeddedLoader{docs: s})
	// One Regexp per expression for both: the library keys patternProperties
	// by Regexp, so DeepEqual compares them by identity.
	patterns := map[string]jsonschema.Regexp{}
	interned := func(expr string) (jsonschema.Regexp, error) {
		if patterns[expr] == nil {
			patterns[expr], _ = lazyPattern(expr)
		}
		return patterns[expr], nil
	}
	for _, c := range []*jsonschema.Compiler{published, trusted} {
		c.AssertFormat()
		c.UseRegexpEngine(interned)
	}
	for _, id := range embeddedIDs() {
		want, err := published.Compile(id)
		if err != nil {
			t.Fatal(err)
		}
		got, err := trusted.Compile(id)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s compiles to another schema in embeddedDialect", id)
		}
	}
}

// TestEmbeddedDialectSkipsAnnotationChecks: a schema in embeddedDialect is
// not checked against the vocabularies left out (a number as title would
// fail the full metaschema), and still asserts what it says.
func TestEmbeddedDialectSkipsAnnotationChecks(t *testing.T) {
	const id = "https://openwop.dev/spec/v1/test.schema.json"
	doc := map[string]any{"$schema": draft2020, "$id": id, "title": json.Number("5"), "type": "string", "format": "uri"}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	c.UseLoader(loaderFunc(func(url string) (any, error) {
		if url == embeddedDialect {
			return embeddedDialectDoc(), nil
		}
		return inEmbeddedDialect(doc), nil
	}))
	sch, err := c.Compile(id)
	if err != nil {
		t.Fatalf("compile in embeddedDialect: %v", err)
	}
	if sch.Validate(5) == nil || sch.Validate("not a uri") == nil || sch.Validate("https://x.test/") != nil {
		t.Error("type or format not asserted in embeddedDialect")
	}
	if doc["$schema"] != draft2020 {
		t.Error("inEmbeddedDialect changed the shared document")
	}
}

func TestDecodeEmbeddedAsLibrary(t *testing.T) {
	for _, id := range embeddedIDs() {
		raw, ok := embeddedBytes(id)
		if !ok {
			t.Fatalf("%s: not embedded", id)
		}
		got, err := decodeEmbedded(raw)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		want, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: decoded differently from jsonschema.UnmarshalJSON", id)
		}
	}
	if _, err := decodeEmbedded([]byte(`{"a":1,"a":2}`)); err == nil {
		t.Error("a duplicate member (which the library would resolve the other way) decodes")
	}
}

func TestEmbeddedPathsMatchIDs(t *testing.T) {
	listed := embeddedIDs()
	n := 0
	err := fs.WalkDir(specFS, "spec", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || path.Ext(p) != ".json" {
			return err
		}
		n++
		raw, err := specFS.ReadFile(p)
		if err != nil {
			return err
		}
		var doc struct {
			ID string `json:"$id"`
		}
		if err := json.Unmarshal(raw, &doc); err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		if got, ok := embeddedPath(doc.ID); !ok || got != p {
			t.Errorf("%s has $id %q, which embeddedPath maps to %q", p, doc.ID, got)
		}
		if !slices.Contains(listed, doc.ID) {
			t.Errorf("%s: $id %q missing from embeddedIDs", p, doc.ID)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n+len(spec.SchemaIDs()) != len(listed) { // internal/spec's are tested there
		t.Errorf("%d embedded schemas, %d listed", n, len(listed))
	}
	s, _ := Load()
	if _, err := s.Compile("https://example.com/not-embedded.json"); err == nil {
		t.Error("a URL that is not embedded compiled: the loader must refuse it")
	}
}

// TestV2VersionManifest: the v2 registry-version-manifest schema takes a
// served v2 version manifest and refuses what a v2 registry serves never:
// a v1 signing block, a range without a ceiling, a runtime on a
// declarative kind, a v1 tarball path.
func TestV2VersionManifest(t *testing.T) {
	id := spec.Base + "registry-version-manifest.schema.json"
	const head = `"name":"community.acme.cards","version":"1.0.0","kind":"card","integrity":"sha256-AAAA",`
	good := `{` + head + `"engines":{"openwop":">=1 <3.0.0"},"signing":{"keyId":"acme-1","scheme":"ed25519-canonical-json"},` +
		`"tarballUrl":"/v2/packs/community.acme.cards/-/1.0.0.tgz","versionDeprecated":true,"x-acme":1}`
	if ps := validate(t, id, good); len(ps) != 0 {
		t.Errorf("a served v2 manifest: %v", ps)
	}
	for name, src := range map[string]string{
		"v1 signing block": `{` + head + `"engines":{"openwop":">=1 <3.0.0"},"signing":{"method":"manual","publicKeyRef":"acme-1","signatureRef":"keys/pack.json.sig"}}`,
		"no ceiling":       `{` + head + `"engines":{"openwop":">=1.0.0"}}`,
		"runtime on card":  `{` + head + `"engines":{"openwop":">=1 <3.0.0"},"runtime":{"language":"javascript"}}`,
		"v1 tarball path":  `{` + head + `"engines":{"openwop":">=1 <3.0.0"},"tarballUrl":"/v1/packs/community.acme.cards/-/1.0.0.tgz"}`,
	} {
		if ps := validate(t, id, src); len(ps) == 0 {
			t.Errorf("%s: accepted", name)
		}
	}
}

// TestNotExplained: a failed "not" (which the library reports without a
// keyword path) is a readable problem, never a panic.
func TestNotExplained(t *testing.T) {
	id := spec.Base + "registry-version-manifest.schema.json"
	ps := validate(t, id, `{"name":"community.acme.cards","version":"1.0.0","kind":"card","integrity":"sha256-AAAA","engines":{"openwop":">=1 <3.0.0"},"runtime":{}}`)
	var found bool
	for _, p := range ps {
		if p.Keyword == "not" {
			found = true
			if p.Message != `property "runtime" is not allowed here` {
				t.Errorf("not: %q", p.Message)
			}
		}
	}
	if !found {
		t.Errorf("no \"not\" problem in %v", ps)
	}
	// The case a real pack reaches: a chain fragment node pinning a host's
	// workflowId (lint panicked on it).
	chain := `{"name":"community.acme.chains","version":"1.0.0","kind":"workflow-chain","engines":{"openwop":">=1.1.0 <2.0.0"},` +
		`"chains":[{"chainId":"community.acme.chains.main","version":"1.0.0","label":"Main","description":"d","parameters":{"type":"object"},` +
		`"dag":{"nodes":[{"id":"n1","typeId":"core.subWorkflow","config":{"workflowId":"wf-1"}}],"edges":[]}}]}`
	id, _ = ForKind(spec.V1, "workflow-chain")
	if ps := validate(t, id, chain); len(ps) != 1 || ps[0].Message != `property "workflowId" is not allowed here` {
		t.Errorf("chain pinning workflowId: %v", ps)
	}
}

// TestV1ConnectionSigning: the published v1 connection schema declares no
// signing block, yet every built v1 pack carries one; the correction lets
// the v1 block through (a signed connection archive lints clean) and still
// refuses anything else there.
func TestV1ConnectionSigning(t *testing.T) {
	id, _ := ForKind(spec.V1, "connection")
	const head = `{"name":"community.acme.conn","version":"1.0.0","kind":"connection","engines":{"openwop":">=1.0.0 <2.0.0"},` +
		`"provider":{"id":"acme","displayName":"Acme","category":"dev","auth":{"kind":"api_key"},"reach":{"mcp":{"server":{"url":"https://mcp.acme.dev","transport":"http"}}}}`
	if ps := validate(t, id, head+`,"signing":{"method":"manual","publicKeyRef":"acme-1","signatureRef":"keys/pack.json.sig"}}`); len(ps) != 0 {
		t.Errorf("a v1 signing block: %v", ps)
	}
	if ps := validate(t, id, head+`,"signing":{"keyId":"acme-1"}}`); len(ps) == 0 {
		t.Error("a v2 signing block passed the v1 connection schema")
	}
	if ps := validate(t, id, head+`}`); len(ps) != 0 {
		t.Errorf("unsigned: %v", ps)
	}
}

// TestNotRequiredNamesTheProperty: a failed not: {required: [X]} (the v2
// node schema's "mcpServer only on a remote runtime") names X.
func TestNotRequiredNamesTheProperty(t *testing.T) {
	node, _ := ForKind(spec.V2, "node")
	mcp := `"mcpServer":{"name":"dev.acme/tools","description":"Tools.","version":"1.0.0","remotes":[{"type":"streamable-http","url":"https://mcp.acme.dev/mcp"}]}`
	head := `"name":"community.acme.demo","version":"1.0.0","kind":"node","engines":{"openwop":">=1.1.0 <3.0.0"},`
	nodes := `"nodes":[{"typeId":"community.acme.demo.x","version":"1.0.0","category":"data","role":"pure"}]`
	if got := validate(t, node, `{`+head+`"runtime":{"language":"remote","entry":"https://mcp.acme.dev/mcp",`+mcp+`},`+nodes+`}`); len(got) > 0 {
		t.Errorf("mcpServer on a remote runtime: %+v", got)
	}
	got := validate(t, node, `{`+head+`"runtime":{"language":"javascript","entry":"index.mjs",`+mcp+`},`+nodes+`}`)
	want := []Problem{{Pointer: "/runtime", Keyword: "not", Message: `property "mcpServer" is not allowed here`}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
}

// TestAgentlessManifestSkipsAgentSchemas: validating a node manifest
// without agents never loads the agent schemas; one with agents does.
func TestAgentlessManifestSkipsAgentSchemas(t *testing.T) {
	for _, tree := range []spec.Tree{spec.V1, spec.V2} {
		node, _ := ForKind(tree, "node")
		base := strings.TrimSuffix(node, "node-pack-manifest.schema.json")
		agentSchemas := []string{base + "agent-manifest.schema.json", base + "prompt-ref.schema.json"}
		s, err := Load()
		if err != nil {
			t.Fatal(err)
		}
		loaded := func() (n int) {
			s.docsMu.Lock()
			defer s.docsMu.Unlock()
			for _, id := range agentSchemas {
				if _, ok := s.docs[id]; ok {
					n++
				}
			}
			return n
		}
		nodes := `{` + nodeHead + `"runtime":{"language":"javascript","entry":"index.mjs"},"nodes":[{"typeId":"community.acme.demo.x","version":"1.0.0","category":"data","role":"pure"}]}`
		validateIn(t, s, node, nodes)
		if n := loaded(); n != 0 {
			t.Errorf("%s: a manifest without agents loaded %d agent schemas", tree, n)
		}
		agents := `{` + nodeHead + `"runtime":{"language":"remote","entry":"pack.json"},"agents":[{"agentId":"community.acme.demo.a","persona":"A","modelClass":"general","systemPrompt":"x"}]}`
		validateIn(t, s, node, agents)
		if n := loaded(); n != len(agentSchemas) {
			t.Errorf("%s: a manifest with agents loaded %d of the %d agent schemas", tree, n, len(agentSchemas))
		}
	}
}

// TestWithoutAgentsValidatesTheSame: for manifests without agents, the
// schema compiled without its agents subschema gives exactly the problems
// of the published one.
func TestWithoutAgentsValidatesTheSame(t *testing.T) {
	manifests := []string{
		`{` + nodeHead + `"runtime":{"language":"javascript","entry":"index.mjs"},"nodes":[{"typeId":"community.acme.demo.x","version":"1.0.0","category":"data","role":"pure"}]}`,
		`{` + nodeHead + `"runtime":{"language":"remote","entry":"pack.json"}}`,
		`{` + nodeHead + `"runtime":{"language":"remote","entry":"pack.json"},"agent":[{"agentId":"x"}]}`,
		`{` + nodeHead + `"runtime":{"language":"javascript","entry":"index.mjs"},"nodes":[{"typeId":"Bad","category":"flow"}],"signing":{"keyId":5}}`,
		`{"name":"x","nodes":[],"agentz":1,"homepage":"not a uri","runtime":{"language":"cobol"}}`,
		`[]`,
	}
	for _, tree := range []spec.Tree{spec.V1, spec.V2} {
		node, _ := ForKind(tree, "node")
		s, err := Load()
		if err != nil {
			t.Fatal(err)
		}
		full := newEmbedded(embeddedLoader{}) // no agentless variant
		for _, m := range manifests {
			if got, want := validateIn(t, s, node, m), validateIn(t, full, node, m); !reflect.DeepEqual(got, want) {
				t.Errorf("%s %s:\n got  %+v\n want %+v", tree, m, got, want)
			}
		}
	}
}

// TestAgentsSubschemaOnlyByName holds what withoutAgents relies on: no
// embedded schema refers to a node manifest schema as a whole or to its
// agents subschema, so that subschema applies only to a root agents member.
func TestAgentsSubschemaOnlyByName(t *testing.T) {
	s, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range embeddedIDs() {
		var walk func(v any)
		walk = func(v any) {
			switch v := v.(type) {
			case map[string]any:
				if ref, ok := v["$ref"].(string); ok {
					target, frag, _ := strings.Cut(ref, "#")
					if target == "" {
						target = id
					} else if !strings.Contains(target, "://") {
						target = id[:strings.LastIndex(id, "/")+1] + strings.TrimPrefix(target, "./")
					}
					if isNodeManifest(target) && (frag == "" || strings.HasPrefix(frag, "/properties/agents")) {
						t.Errorf("%s refers to %s#%s", id, target, frag)
					}
				}
				for _, x := range v {
					walk(x)
				}
			case []any:
				for _, x := range v {
					walk(x)
				}
			}
		}
		doc, err := s.doc(id)
		if err != nil {
			t.Fatal(err)
		}
		walk(doc)
	}
}

// TestAgentlessReusesTheFullSchema: once the full node manifest schema is
// compiled, a manifest without agents is validated by it, not compiled
// again without agents.
func TestAgentlessReusesTheFullSchema(t *testing.T) {
	node, _ := ForKind(spec.V1, "node")
	s, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	validateIn(t, s, node, `{`+nodeHead+`"runtime":{"language":"remote","entry":"pack.json"},"agents":[{"agentId":"community.acme.demo.a","persona":"A","modelClass":"general","systemPrompt":"x"}]}`)
	validateIn(t, s, node, `{`+nodeHead+`"runtime":{"language":"remote","entry":"pack.json"}}`)
	if s.agentless.isCompiled(node) {
		t.Error("the node manifest schema was compiled again without agents")
	}
}
