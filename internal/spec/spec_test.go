package spec

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"regexp"
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/jsonpos"
)

// TestProvenance: every embedded file has exactly one provenance row whose
// sha256 is of the embedded bytes, so a file cannot change unrecorded.
func TestProvenance(t *testing.T) {
	rows, err := Provenance()
	if err != nil {
		t.Fatal(err)
	}
	recorded := map[string]bool{}
	for _, r := range rows {
		if recorded[r.File] {
			t.Errorf("%s: two provenance rows", r.File)
		}
		recorded[r.File] = true
		if r.Repository == "" || r.Path == "" || len(r.Commit) != 40 {
			t.Errorf("%s: incomplete provenance %+v", r.File, r)
		}
		raw, err := readFile(r.File)
		if err != nil {
			t.Errorf("%s: %v", r.File, err)
			continue
		}
		sum := sha256.Sum256(raw)
		if got := hex.EncodeToString(sum[:]); got != r.SHA256 {
			t.Errorf("%s: sha256 %s, provenance says %s", r.File, got, r.SHA256)
		}
	}
	err = fs.WalkDir(files, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && p != "PROVENANCE.json" && !recorded[p] {
			t.Errorf("%s is embedded without a provenance row", p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestSchemaIDs: every embedded schema's $id is the one its file name
// gives, so Schema finds each by $id.
func TestSchemaIDs(t *testing.T) {
	ids := SchemaIDs()
	if len(ids) != 16 {
		t.Errorf("%d embedded schemas, want 16: %v", len(ids), ids)
	}
	for _, id := range ids {
		raw, ok := Schema(id)
		if !ok {
			t.Errorf("Schema(%s) not found", id)
			continue
		}
		var doc struct {
			ID string `json:"$id"`
		}
		if err := json.Unmarshal(raw, &doc); err != nil || doc.ID != id {
			t.Errorf("%s: the file says $id %q (%v)", id, doc.ID, err)
		}
	}
	if _, ok := Schema(Base + "nope.schema.json"); ok {
		t.Error("Schema found a file that is not embedded")
	}
}

func TestTreeOf(t *testing.T) {
	for src, want := range map[string]Tree{
		`{"engines":{"openwop":">=1.0.0 <3.0.0"}}`: V2,
		`{"engines":{"openwop":">=1 <3.0.0"}}`:     V2,
		`{"engines":{"openwop":">=2.1 <4.0.0"}}`:   V2,
		`{"engines":{"openwop":">=1.0.0 <2.0.0"}}`: V1,
		`{"engines":{"openwop":">=1.0.0"}}`:        V1,
		`{"engines":{"openwop":">=1.0.0 <3.1.0"}}`: V1, // not the registry's shape
		`{"engines":{"openwop":"^2.0.0"}}`:         V1,
		`{"engines":{"openwop":3}}`:                V1,
		`{}`:                                       V1,
	} {
		doc, err := jsonpos.Parse([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		if got := TreeOf(doc.Root); got != want {
			t.Errorf("TreeOf(%s) = %s, want %s", src, got, want)
		}
		if got := Auto.Resolve(doc.Root); got != want {
			t.Errorf("Auto.Resolve(%s) = %s, want %s", src, got, want)
		}
		if got := V1.Resolve(doc.Root); got != V1 {
			t.Errorf("V1.Resolve(%s) = %s", src, got)
		}
	}
	for _, bad := range []string{"v3", "V2", "2"} {
		if _, err := ParseTree(bad); err == nil {
			t.Errorf("ParseTree(%q) accepted", bad)
		}
	}
}

// TestCorrect: the stale chain copy gets a v2 signing block and open
// fragment-node config (its own comment says open by design); the
// connection apiHosts lookahead becomes RE2.
func TestCorrect(t *testing.T) {
	chain := map[string]any{
		"properties": map[string]any{"signing": map[string]any{"$ref": "#/$defs/Signing"}},
		"$defs": map[string]any{"FragmentNode": map[string]any{"properties": map[string]any{
			"config": map[string]any{"additionalProperties": false, "not": map[string]any{"required": []any{"workflowId"}}},
		}}},
	}
	Correct(Base+"workflow-chain-pack-manifest.schema.json", chain)
	cfg := dig(chain, "$defs", "FragmentNode", "properties", "config")
	if _, closed := cfg["additionalProperties"]; closed || cfg["not"] == nil {
		t.Errorf("fragment config after Correct: %v", cfg)
	}
	if sig := dig(chain, "properties", "signing"); sig["additionalProperties"] != false || dig(sig, "properties", "scheme")["const"] != "ed25519-canonical-json" {
		t.Errorf("chain signing after Correct: %v", sig)
	}
	conn := map[string]any{"properties": map[string]any{"provider": map[string]any{"properties": map[string]any{
		"apiHosts": map[string]any{"items": map[string]any{"pattern": lookaheadHost}},
	}}}}
	Correct(v1Base+"connection-pack-manifest.schema.json", conn)
	if p := dig(conn, "properties", "provider", "properties", "apiHosts", "items")["pattern"]; p != re2Host {
		t.Errorf("apiHosts pattern after Correct: %v", p)
	}
	if dig(conn, "properties", "signing")["$ref"] != "node-pack-manifest.schema.json#/$defs/Signing" {
		t.Errorf("v1 connection signing after Correct: %v", dig(conn, "properties", "signing"))
	}
	prompt := map[string]any{"properties": map[string]any{"signing": map[string]any{"$ref": "x"}}}
	Correct(Base+"prompt-ref.schema.json", prompt)
	if dig(prompt, "properties", "signing")["$ref"] != "x" {
		t.Error("Correct changed a schema it has no correction for")
	}
}

// TestCorrectMCPServer: the registry-pinned node schema gets the spec's
// runtime.mcpServer (only on a remote runtime) and McpServerRecord; the
// chain copy's fragment typeId admits an "@version" pin.
func TestCorrectMCPServer(t *testing.T) {
	node := map[string]any{"$defs": map[string]any{"Runtime": map[string]any{"properties": map[string]any{"language": map[string]any{}}}}}
	Correct(Base+"node-pack-manifest.schema.json", node)
	rt := dig(node, "$defs", "Runtime")
	if dig(rt, "properties", "mcpServer")["$ref"] != "#/$defs/McpServerRecord" || rt["else"] == nil {
		t.Errorf("Runtime after Correct: %v", rt)
	}
	if rec := dig(node, "$defs", "McpServerRecord"); rec["additionalProperties"] != false {
		t.Errorf("McpServerRecord after Correct: %v", rec)
	}
	chain := map[string]any{"$defs": map[string]any{"FragmentNode": map[string]any{"properties": map[string]any{
		"typeId": map[string]any{"pattern": unpinnedTypeID},
	}}}}
	Correct(Base+"workflow-chain-pack-manifest.schema.json", chain)
	re := regexp.MustCompile(dig(chain, "$defs", "FragmentNode", "properties", "typeId")["pattern"].(string))
	for ref, want := range map[string]bool{"core.ai.callPrompt@1.0.0": true, "core.ai.callPrompt@^1": true, "core.ai.callPrompt": true, "core.ai@1@2": false, "Core.x@1.0.0": false} {
		if re.MatchString(ref) != want {
			t.Errorf("pinnable typeId pattern on %q: %v, want %v", ref, !want, want)
		}
	}
}

func TestExactVersion(t *testing.T) {
	for v, want := range map[string]bool{"1.0.0": true, "10.20.30": true, "1.0": false, "^1.0.0": false, "1.0.0-rc.1": false, "1..0": false, "": false, "0.0.0": true, "01.2.3": false, "1.00.0": false, "1.0.00": false} {
		if ExactVersion(v) != want {
			t.Errorf("ExactVersion(%q) = %v", v, !want)
		}
	}
}

func TestLoadDeclaration(t *testing.T) {
	d, err := LoadDeclaration()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := d.Families["agentRuntime"]; !ok {
		t.Error("agentRuntime is a declared family")
	}
	if _, ok := d.Families["grpc"]; ok {
		t.Error("grpc is deleted and must not be a family")
	}
	if a := d.Aliases["openwop.agents.memoryBackends"]; a.Family != "agents" || len(a.Facets) != 1 || a.Facets[0] != "memoryBackends" {
		t.Errorf("alias openwop.agents.memoryBackends = %+v", a)
	}
	// The one alias row whose facet the declaration does not list.
	a := d.Aliases["host.campaignMessaging"]
	if ok, not := d.SplitFacets(a.Family, a.Facets); a.Family != "messaging" || len(ok) != 0 || len(not) != 1 || not[0] != "campaign" {
		t.Errorf("SplitFacets(%+v) = %v, %v", a, ok, not)
	}
	if ok, not := d.SplitFacets("agents", []string{"memoryBackends"}); len(ok) != 1 || len(not) != 0 {
		t.Errorf("SplitFacets(agents, memoryBackends) = %v, %v", ok, not)
	}
}

// TestLoadErrors: the v2 error registry parses, each code once, and the
// pack codes a v2 registry adds are told apart from v1's.
func TestLoadErrors(t *testing.T) {
	codes, err := LoadErrors()
	if err != nil {
		t.Fatal(err)
	}
	if len(codes) != 101 {
		t.Errorf("%d codes, want the 101 rows of errors.json", len(codes))
	}
	for code, v2 := range map[string]bool{
		"pack_engine_unsupported":        true,
		"sub_chain_cycle":                true,
		"payload_unprojectable":          true, // since 2.3
		"pack_peer_dependency_undefined": false,
		"pack_validation_failed":         false,
	} {
		c, ok := codes[code]
		if !ok {
			t.Errorf("%s is not in the registry", code)
			continue
		}
		if c.V2Only() != v2 {
			t.Errorf("%s: V2Only() = %v (since %q)", code, c.V2Only(), c.Since)
		}
	}
	if c := codes["pack_engine_unsupported"]; c.HTTPStatus != 400 || c.Retriable || c.Source != "RFC 0177 §A.1" {
		t.Errorf("pack_engine_unsupported = %+v", c)
	}
	if (ErrorCode{Since: "x"}).V2Only() {
		t.Error("an unreadable since is not v2")
	}
}

func TestPins(t *testing.T) {
	pins, err := Pins()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"openwop/openwop@11ad780,280544d,9cd7a5b", "openwop/openwop-registry@c725049,db84567", "openwop/openwop-sdks@"} {
		if !strings.Contains(pins, want) {
			t.Errorf("Pins() = %q, want %q in it", pins, want)
		}
	}
	if v := Versions(); v["v2"] != Version || len(v) != 1 {
		t.Errorf("Versions() = %v", v)
	}
}

// TestCorrectFrontendPlugin: the frontend-plugin copy gets the v2 signing
// block, and the registry-version-manifest copy admits the kind without a
// runtime and carries uiPlugins.
func TestCorrectFrontendPlugin(t *testing.T) {
	fp := map[string]any{"properties": map[string]any{"uiPlugins": map[string]any{}}}
	Correct(Base+"frontend-plugin-manifest.schema.json", fp)
	if dig(fp, "properties", "signing", "properties", "scheme")["const"] != "ed25519-canonical-json" {
		t.Errorf("frontend-plugin signing after Correct: %v", dig(fp, "properties", "signing"))
	}
	vm := map[string]any{
		"properties": map[string]any{"kind": map[string]any{"enum": []any{"node", "card"}}},
		"allOf":      []any{map[string]any{"if": map[string]any{"properties": map[string]any{"kind": map[string]any{"enum": []any{"card"}}}}}},
	}
	Correct(Base+"registry-version-manifest.schema.json", vm)
	Correct(Base+"registry-version-manifest.schema.json", vm) // twice changes nothing more
	if got := dig(vm, "properties", "kind")["enum"].([]any); len(got) != 3 || got[2] != "frontend-plugin" {
		t.Errorf("version manifest kind enum after Correct: %v", got)
	}
	if got := dig(vm["allOf"].([]any)[0].(map[string]any), "if", "properties", "kind")["enum"].([]any); len(got) != 2 || got[1] != "frontend-plugin" {
		t.Errorf("version manifest runtime-less kinds after Correct: %v", got)
	}
	if dig(vm, "properties", "uiPlugins")["type"] != "array" {
		t.Errorf("version manifest uiPlugins after Correct: %v", dig(vm, "properties", "uiPlugins"))
	}
}

func TestVersionTemplate(t *testing.T) {
	tmpl := VersionTemplate()
	if !strings.HasPrefix(tmpl, "wop {{.Version}}\nspec: OpenWOP v1, and v2 pinned at "+Version+"\nspec sources: openwop/") || !strings.HasSuffix(tmpl, "\n") {
		t.Errorf("VersionTemplate() = %q", tmpl)
	}
}
