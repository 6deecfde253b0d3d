package assist

import (
	"bytes"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// docNames are the kinds of documents the fuzz target and the hostile
// inputs are read as.
var docNames = []string{"pack/pack.json", "pack/schemas/config.schema.json", "pack/team.agf.yaml", "pack/.wop.yaml", "pack/README.md"}

// FuzzAssist holds that any bytes, read as any kind of document, at any
// offset, get answers without a panic, whose spans lie within the
// document (a definition's within the same document when it points there).
func FuzzAssist(f *testing.F) {
	for _, s := range []string{
		`{"agents": [{"modelClass": "`, `{"kind": "`, `{"name": `, chain(chainV1, "vendor.acme.tools.fetch"),
		`{"agents": [{"toolAllowlist": ["openwop:vendor.acme.tools.fetch"], "systemPromptRef": "prompts/writer.md"}]}`,
		`{"$ref": "defs.schema.json#/$defs/mode", "$defs": {"a": {"$ref": "#/$defs"}}}`,
		"action_space:\n  local_agents:\n    - alias: d\n      source: \"drafter.agf.yaml\"\n",
		"rules:\n  ref-missing:\n    severity: w", "\"\\u00e9\\", "[[[{\"a\":[", "{\"é\": \"😀\"", "\xff\xfe{\"a\"",
	} {
		for i := range docNames {
			f.Add([]byte(s), uint8(i), uint16(len(s)/2))
		}
	}
	env := testEnv(f)
	f.Fuzz(func(t *testing.T, text []byte, kind uint8, at uint16) {
		abs, _ := filepath.Abs(filepath.Join("testdata", docNames[int(kind)%len(docNames)]))
		doc := Doc{Path: abs, Text: text}
		checkAnswers(t, env, doc, int(at)%(len(text)+1))
	})
}

// checkAnswers asks everything at off and checks every span.
func checkAnswers(t *testing.T, env Env, doc Doc, off int) {
	t.Helper()
	n := len(doc.Text)
	in := func(what string, s Span) {
		if s.Start < 0 || s.End < s.Start || s.End > n {
			t.Fatalf("%s span %v outside a document of %d bytes", what, s, n)
		}
	}
	if _, span, ok := Hover(env, doc, off); ok {
		in("hover", span)
	}
	for _, it := range Complete(env, doc, off) {
		in("completion "+it.Label, it.Replace)
	}
	for _, l := range Definition(env, doc, off) {
		if l.Path == doc.Path {
			in("definition", l.Span)
		} else if l.Span.Start < 0 || l.Span.End < l.Span.Start {
			t.Fatalf("definition span %v in %s", l.Span, l.Path)
		}
	}
	for _, l := range Links(env, doc) {
		in("link", l.Span)
	}
}

// TestOutOfRangeOffsets holds that offsets outside the document get no
// answer.
func TestOutOfRangeOffsets(t *testing.T) {
	env := testEnv(t)
	doc, _ := at(t, "pack/pack.json", `{"kind": "<|>`)
	for _, off := range []int{-1, len(doc.Text) + 1, 1 << 40} {
		if _, _, ok := Hover(env, doc, off); ok {
			t.Errorf("hover at %d", off)
		}
		if len(Complete(env, doc, off)) != 0 || len(Definition(env, doc, off)) != 0 {
			t.Errorf("answers at %d", off)
		}
	}
}

// TestHostileDocuments holds that a 5 MB buffer, binary content and deep
// nesting are answered in bounded time. The bound is generous (the
// machine is shared); a quadratic walk would exceed it by far.
func TestHostileDocuments(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 5 MB documents")
	}
	env := testEnv(t)
	const size = 5 << 20
	binary := make([]byte, size)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range binary {
		binary[i] = byte(r.UintN(256))
	}
	docs := map[string][]byte{
		"deep arrays":                   bytes.Repeat([]byte("["), size),
		"deep objects":                  bytes.Repeat([]byte(`{"a":`), size/5),
		"wide array":                    []byte("[" + strings.Repeat(`"x",`, size/4) + "]"),
		"many members":                  []byte(`{"agents": [{` + strings.Repeat(`"modelClass": "w",`, size/18) + `"x": "`),
		"long string":                   []byte(`{"license": "` + strings.Repeat("a", size)),
		"binary":                        binary,
		"binary value":                  append([]byte(`{"agents": [{"modelClass": `), binary...),
		"yaml nesting":                  []byte(strings.Repeat("- ", size/2)),
		"yaml nesting at the agf bound": []byte(strings.Repeat("- ", maxYAML/2-1)),
		"flow nesting at the agf bound": []byte(strings.Repeat("[", maxYAML-1)),
		"agf at its bound":              []byte("action_space:\n  local_agents: [" + strings.Repeat(`{source: x.agf.yaml},`, maxYAML/21-2) + "]\n"),
	}
	for name, text := range docs {
		for _, file := range []string{"pack/pack.json", "pack/team.agf.yaml", "pack/.wop.yaml"} { // schemas read as pack.json does
			abs, _ := filepath.Abs(filepath.Join("testdata", file))
			doc := Doc{Path: abs, Text: text}
			start := time.Now()
			checkAnswers(t, env, doc, len(text)/2)
			t.Logf("%s as %s: %v", name, file, time.Since(start))
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("%s as %s: %v", name, file, d)
			}
		}
	}
}
