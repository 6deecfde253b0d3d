package schema

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/testutil/fixturejson"
)

// fastCheckCases are pack schemas of the shapes real packs ship (sure: the
// fast check must settle them without the library) and of shapes it must
// leave to the library (valid or not).
var fastCheckCases = []struct {
	name string
	src  string
	sure bool
}{
	{"empty object", `{}`, true},
	{"true", `true`, true},
	{"false", `false`, true},
	{"typical input", `{"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://packs.example.dev/community.acme.demo/1.0.0/in.json","title":"In","type":"object","additionalProperties":false,"required":["q","n"],"properties":{"q":{"type":"string","minLength":1,"maxLength":200,"pattern":"^[a-z]+$","format":"uri","description":"d"},"n":{"type":["integer","null"],"minimum":0,"maximum":10.5,"default":3},"tags":{"type":"array","items":{"type":"string","enum":["a","b"]},"minItems":1,"uniqueItems":true},"x-openwop-form":{"any":["thing",1]}}}`, true},
	{"combinators and local ref", `{"$defs":{"R":{"type":"object","properties":{"k":{"const":"v"}}}},"oneOf":[{"$ref":"#/$defs/R"},{"not":{"type":"null"}}],"if":{"required":["a"]},"then":{"readOnly":true},"else":{"deprecated":false},"propertyNames":{"pattern":"^x"},"patternProperties":{"^a+$":{"examples":[1]}},"multipleOf":0.5,"$comment":"c"}`, true},
	{"ref to root", `{"properties":{"child":{"$ref":"#"}}}`, true},
	{"refs into subschemas", `{"allOf":[{"type":"object"}],"properties":{"a":{"items":{"type":"string"}},"b":{"$ref":"#/properties/a/items"},"c":{"$ref":"#/allOf/0"}}}`, true},
	{"ref index not canonical", `{"allOf":[{}],"$ref":"#/allOf/00"}`, false},
	{"ref index out of range", `{"allOf":[{}],"$ref":"#/allOf/1"}`, false},
	{"ref to the $defs map", `{"$defs":{"a":{}},"$ref":"#/$defs"}`, false},
	{"ref to an empty token", `{"$ref":"#/"}`, false},
	{"ref into a keyword value", `{"enum":[{}],"$ref":"#/enum/0"}`, false},
	{"unknown keywords ignored", `{"kind":"x","dependsOn":{"$id":5,"type":7}}`, true},

	{"type not a type", `{"type":"strnig"}`, false},
	{"type array repeats", `{"type":["string","string"]}`, false},
	{"type empty array", `{"type":[]}`, false},
	{"required repeats", `{"required":["a","a"]}`, false},
	{"required not strings", `{"required":[1]}`, false},
	{"minLength negative", `{"minLength":-1}`, false},
	{"minLength fraction", `{"minLength":1.5}`, false},
	{"minLength exponent", `{"minLength":1e2}`, false},
	{"minimum a string", `{"minimum":"0"}`, false},
	{"minimum exponent", `{"minimum":1e400}`, false},
	{"multipleOf zero", `{"multipleOf":0}`, false},
	{"multipleOf negative", `{"multipleOf":-2}`, false},
	{"bad pattern", `{"pattern":"(["}`, false},
	{"bad patternProperties name", `{"patternProperties":{"([":{}}}`, false},
	{"title a number", `{"title":5}`, false},
	{"properties an array", `{"properties":[]}`, false},
	{"property a string", `{"properties":{"a":"string"}}`, false},
	{"items an array", `{"items":[{}]}`, false},
	{"allOf empty", `{"allOf":[]}`, false},
	{"enum an object", `{"enum":{}}`, false},
	{"uniqueItems a string", `{"uniqueItems":"yes"}`, false},
	{"older $schema", `{"$schema":"http://json-schema.org/draft-07/schema#"}`, false},
	{"nested $id", `{"properties":{"a":{"$id":"https://x.example/a"}}}`, false},
	{"ref to a missing def", `{"$ref":"#/$defs/none"}`, false},
	{"ref to a non-schema position", `{"properties":{"a":{}},"$ref":"#/properties"}`, false},
	{"ref to another document", `{"$ref":"other.json"}`, false},
	{"ref to an OpenWOP schema", `{"$ref":"https://openwop.dev/spec/v1/node-pack-manifest.schema.json"}`, false},
	{"ref escaped", `{"$defs":{"a/b":{}},"$ref":"#/$defs/a~1b"}`, false},
	{"definitions keyword", `{"definitions":{"a":{}}}`, false},
	{"dynamic ref", `{"$dynamicRef":"#meta"}`, false},
	{"anchor", `{"$anchor":"a"}`, false},
	{"dependencies keyword", `{"dependencies":{"a":["b"]}}`, false},
	{"a string document", `"schema"`, false},
	{"relative $id", `{"$id":"in.json"}`, false},
	{"metaschema host $id", `{"$id":"https://json-schema.org/x"}`, false},
	{"$id with fragment", `{"$id":"https://x.example/a#f"}`, false},
	{"$id with dot segment", `{"$id":"https://x.example/a/../b"}`, false},
}

// docFor decodes src as lint does and names it as lint does: by its $id,
// else by a synthetic URL.
func docFor(t testing.TB, src string) (Document, bool) {
	t.Helper()
	d, err := jsonpos.Parse([]byte(src))
	if err != nil {
		return Document{}, false
	}
	url := "https://wop.invalid/pack/schemas/s.json"
	if id := d.Root.Get("$id"); d.Root.Kind == jsonpos.Object && id != nil && id.Kind == jsonpos.String {
		url = id.Str
	}
	return Document{URL: url, Doc: d.Root.Interface(), Source: d.Root}, true
}

func TestFastCheckAgreesWithLibrary(t *testing.T) {
	s, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range fastCheckCases {
		t.Run(tt.name, func(t *testing.T) {
			doc, ok := docFor(t, tt.src)
			if !ok {
				t.Fatalf("case is not JSON: %s", tt.src)
			}
			docs := []Document{doc}
			if got := surelyCompile(docs); got != tt.sure {
				t.Errorf("surelyCompile = %v, want %v", got, tt.sure)
			}
			slow := s.compilePack(docs)
			if tt.sure && len(slow) > 0 {
				t.Errorf("fast check is sure, but the library refuses it: %v", slow)
			}
			if got := s.CompilePack(docs); len(got) != len(slow) || !slices.Equal(got[doc.URL], slow[doc.URL]) {
				t.Errorf("CompilePack = %v, the library alone = %v", got, slow)
			}
		})
	}
}

func TestFastCheckNeedsDistinctPlainURLs(t *testing.T) {
	parsed := func(url, src string) Document {
		t.Helper()
		d, err := jsonpos.Parse([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		return Document{URL: url, Source: d.Root}
	}
	a := parsed("https://x.example/a.json", `{}`)
	if !surelyCompile([]Document{a}) {
		t.Fatal("a plain document is not settled")
	}
	if surelyCompile([]Document{a, a}) {
		t.Error("two documents under one URL are settled without the library")
	}
	if surelyCompile([]Document{parsed("schemas/a b.json", `{}`)}) {
		t.Error("a URL the library would resolve as a file path is settled without it")
	}
	if surelyCompile([]Document{parsed("https://x.example/b.json", `{"$id":"https://x.example/c.json"}`)}) {
		t.Error("a document registered under another URL than its $id is settled without the library")
	}
	if surelyCompile([]Document{{URL: "https://x.example/d.json", Doc: map[string]any{}}}) {
		t.Error("a document without its parsed source is settled without the library")
	}
}

// TestCompilePackKeepsTheBudget: a pack of plain schemas over MaxSubschemas
// is refused as before, not settled by the fast check.
func TestCompilePackKeepsTheBudget(t *testing.T) {
	s, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString(`{"properties":{`)
	for i := range MaxSubschemas + 1 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"p%d":{}`, i)
	}
	b.WriteString(`}}`)
	doc, ok := docFor(t, b.String())
	if !ok {
		t.Fatal("not JSON")
	}
	withSource := Document{URL: doc.URL, Source: doc.Source}
	got := s.CompilePack([]Document{withSource})
	if ces := got[doc.URL]; len(ces) != 1 || !strings.Contains(ces[0].Message, "too large") {
		t.Errorf("CompilePack = %v, want the schema refused as too large", got)
	}
}

// FuzzFastCheckAgreesWithLibrary: whenever the fast check is sure a schema
// compiles, the library compiles it.
func FuzzFastCheckAgreesWithLibrary(f *testing.F) {
	for _, tt := range fastCheckCases {
		f.Add(tt.src)
	}
	s, err := Default()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, src string) {
		doc, ok := docFor(t, src)
		if !ok {
			return
		}
		docs := []Document{doc}
		if surelyCompile(docs) {
			if failed := s.compilePack(docs); len(failed) > 0 {
				t.Fatalf("fast check is sure, but the library refuses %s: %v", src, failed)
			}
		}
	})
}

// TestFastCheckOnFixtures: on every schema of the repository's fixtures,
// CompilePack gives the library's verdict, and the fast check settles the
// plain ones.
func TestFastCheckOnFixtures(t *testing.T) {
	s, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	settled := 0
	for _, f := range fixturejson.All(t, "../..") {
		if !strings.Contains(f.Name, "schemas/") {
			continue
		}
		doc, ok := docFor(t, string(f.Data))
		if !ok {
			continue
		}
		docs := []Document{doc}
		slow := s.compilePack(docs)
		if surelyCompile(docs) {
			settled++
			if len(slow) > 0 {
				t.Errorf("%s: fast check is sure, but the library refuses it: %v", f.Name, slow)
			}
		}
		if got := s.CompilePack(docs); len(got) != len(slow) || !slices.Equal(got[doc.URL], slow[doc.URL]) {
			t.Errorf("%s: CompilePack = %v, the library alone = %v", f.Name, got, slow)
		}
	}
	if settled == 0 {
		t.Error("the fast check settled none of the fixtures' schemas")
	}
	t.Logf("the fast check settled %d of the fixtures' schemas", settled)
}

// TestCompilePackReportsEveryProblem: a schema with three mistakes gets
// three problems in one run, each at its own place, not one per round.
func TestCompilePackReportsEveryProblem(t *testing.T) {
	s, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	doc, ok := docFor(t, `{"type": "obj", "properties": {"input": {"type": "string", "minLength": "5"}}, "required": "input"}`)
	if !ok {
		t.Fatal("not JSON")
	}
	var got []string
	for _, ce := range s.CompilePack([]Document{doc})[doc.URL] {
		got = append(got, ce.Pointer)
	}
	if want := []string{"/properties/input/minLength", "/required", "/type"}; !slices.Equal(got, want) {
		t.Errorf("problems at %q, want %q", got, want)
	}
}

// TestCompileProblemsSayTheFix: a misspelt type gets a did you mean, and a
// value of the wrong type is quoted back as the type wanted.
func TestCompileProblemsSayTheFix(t *testing.T) {
	s, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	doc, ok := docFor(t, `{"type": "obj", "properties": {"a": {"minLength": "5", "maximum": "1.5e3", "maxLength": "05"}, "b": {"uniqueItems": "true"}}, "required": "input"}`)
	if !ok {
		t.Fatal("not JSON")
	}
	got := map[string]string{}
	for _, ce := range s.CompilePack([]Document{doc})[doc.URL] {
		got[ce.Pointer] = strings.TrimPrefix(ce.Message, "not a valid 2020-12 schema: ")
	}
	want := map[string]string{
		"/type":                     `"obj" is not allowed here; did you mean "object"? (allowed: "array", "boolean", "integer", "null", "number", "object", "string")`,
		"/properties/a/minLength":   "wrong type: got string, want integer: write 5 without quotes",
		"/properties/a/maximum":     "wrong type: got string, want number: write 1.5e3 without quotes",
		"/properties/a/maxLength":   "wrong type: got string, want integer", // "05" is no JSON integer
		"/properties/b/uniqueItems": "wrong type: got string, want boolean: write true without quotes",
		"/required":                 `wrong type: got string, want array: write ["input"]`,
	}
	for ptr, w := range want {
		if got[ptr] != w {
			t.Errorf("%s: %q, want %q", ptr, got[ptr], w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("problems %v, want %d", got, len(want))
	}
}
