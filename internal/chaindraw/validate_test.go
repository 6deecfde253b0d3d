package chaindraw

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wop-cli/wop/internal/chain"
	"github.com/wop-cli/wop/internal/graphviz"
	"github.com/wop-cli/wop/internal/graphviz/engine"
	"github.com/wop-cli/wop/internal/jsonpos"
)

// This file is the validation harness: every drawing the printers make of
// the fixtures is read by the tool it is meant for. DOT by Graphviz's own
// dot, Mermaid by Mermaid's own parser (in Node), SVG by encoding/xml. The
// external tools are optional: each test skips, saying why, without them.

// fixtures are the charts every format is validated on: the hand-made
// sample (plain and against a previous release) and real registry chains
// (the 30-node one, and one whose nodes all carry author positions).
func fixtures(t testing.TB) map[string]Chart {
	out := sampleCharts(t)
	for _, name := range []string{"kicktodo", "positioned"} {
		raw, err := os.ReadFile(filepath.Join("testdata", name+".pack.json"))
		if err != nil {
			t.Fatal(err)
		}
		doc, err := jsonpos.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range chain.Analyze(doc.Root, chain.Options{}).DAGs {
			out[name+"/"+d.ChainID] = Chart{Pack: name + "@1.0.0", File: "pack.json", DAG: d}
		}
	}
	return out
}

// layout runs Graphviz in the test process, as the helper does.
func layout(ctx context.Context, graphs []Graph) ([][]byte, error) {
	var out [][]byte
	for _, g := range graphs {
		l := graphviz.Dot
		if g.Pinned {
			l = graphviz.Pinned
		}
		svg, err := engine.Render(ctx, l, g.DOT)
		if err != nil {
			return nil, err
		}
		out = append(out, svg)
	}
	return out, nil
}

func TestDOTParsesWithGraphviz(t *testing.T) {
	dot, err := exec.LookPath("dot")
	if err != nil {
		t.Skip("Graphviz's dot is not installed (apt-get install graphviz): DOT output not validated")
	}
	fx := fixtures(t)
	docs := map[string][]byte{"all charts in one graph": DOTAll(sortedCharts(fx))}
	for name, c := range fx {
		docs[name] = DOT(c)
	}
	for name, doc := range docs {
		t.Run(name, func(t *testing.T) {
			cmd := exec.CommandContext(t.Context(), dot, "-Tsvg")
			cmd.Stdin = bytes.NewReader(doc)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil || stderr.Len() > 0 {
				t.Fatalf("dot: %v\n%s\n%s", err, stderr.String(), doc)
			}
			checkOneXMLDocument(t, out)
		})
	}
}

// checkOneXMLDocument fails unless doc is one XML document: dot writes one
// SVG per graph of its input, one after the other, which no XML reader
// takes.
func checkOneXMLDocument(t *testing.T, doc []byte) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(doc))
	depth, roots := 0, 0
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("not XML: %v", err)
		}
		switch tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				roots++
			}
			depth++
		case xml.EndElement:
			depth--
		}
	}
	if roots != 1 {
		t.Errorf("%d root elements, want one document", roots)
	}
}

// sortedCharts are the fixtures' charts in name order, as one command
// drawing several packs would have them.
func sortedCharts(fx map[string]Chart) []Chart {
	names := slices.Sorted(maps.Keys(fx))
	out := make([]Chart, 0, len(names))
	for _, n := range names {
		out = append(out, fx[n])
	}
	return out
}

// mermaidDir holds the mermaid and jsdom npm packages
// (bench/mermaid-setup.sh), or "" when there are none.
func mermaidDir() string {
	dir := os.Getenv("WOP_MERMAID_DIR")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		dir = filepath.Join(home, ".cache", "wop-mermaid")
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "mermaid", "package.json")); err != nil {
		return ""
	}
	return dir
}

func TestMermaidParses(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: Mermaid output not validated")
	}
	dir := mermaidDir()
	if dir == "" {
		t.Skip("Mermaid's parser is not installed (bench/mermaid-setup.sh, or set WOP_MERMAID_DIR): Mermaid output not validated")
	}
	fx := fixtures(t)
	docs := map[string]string{"all charts in one flowchart": MermaidAll(sortedCharts(fx))}
	for name, c := range fx {
		docs[name] = Mermaid(c)
	}
	for _, block := range mermaidFences(MermaidMarkdown(sortedCharts(fx))) {
		docs[fmt.Sprintf("markdown block %d", len(docs))] = block
	}
	var names []string
	var in bytes.Buffer
	for name, doc := range docs {
		names = append(names, name)
		in.WriteString(doc)
		in.WriteByte(0)
	}
	cmd := exec.CommandContext(t.Context(), node, filepath.Join("testdata", "mermaid-parse.mjs"), dir)
	cmd.Stdin = &in
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != len(names) {
		t.Fatalf("parser answered %d lines for %d documents: %v\n%s%s", len(lines), len(names), err, out, stderr.String())
	}
	for i, l := range lines {
		if l != "ok" {
			t.Errorf("%s: %s\n%s", names[i], l, docs[names[i]])
		}
	}
}

// mermaidFences are the bodies of a Markdown document's mermaid blocks.
func mermaidFences(md string) []string {
	var out []string
	for _, part := range strings.Split(md, "```mermaid\n")[1:] {
		body, _, ok := strings.Cut(part, "```")
		if ok {
			out = append(out, body)
		}
	}
	return out
}

func TestSVGIsSelfContainedXML(t *testing.T) {
	fx := fixtures(t)
	var all []Chart
	for name, c := range fx {
		all = append(all, c)
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Write(t.Context(), &buf, "svg", []Chart{c}, Options{Layout: layout}); err != nil {
				t.Fatal(err)
			}
			checkSVG(t, buf.Bytes())
		})
	}
	t.Run("all in one document", func(t *testing.T) {
		var buf bytes.Buffer
		if err := Write(t.Context(), &buf, "svg", all, Options{Layout: layout}); err != nil {
			t.Fatal(err)
		}
		checkSVG(t, buf.Bytes())
		if n := strings.Count(buf.String(), "<svg"); n != len(all)+1 {
			t.Errorf("%d <svg> elements, want one per chart and the document's", n)
		}
	})
}

// checkSVG parses svg as XML and refuses anything that reaches outside
// the file: a DOCTYPE (its DTD), scripts, links, external fonts or images.
func checkSVG(t *testing.T, svg []byte) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(svg))
	root := ""
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("not XML: %v\n%s", err, svg)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			if root == "" {
				root = tok.Name.Local
			}
			switch tok.Name.Local {
			case "script", "image", "foreignObject", "style":
				t.Errorf("<%s> in the SVG", tok.Name.Local)
			}
			for _, a := range tok.Attr {
				if a.Name.Local == "href" || strings.Contains(a.Value, "url(http") {
					t.Errorf("<%s %s=%q> reaches outside the file", tok.Name.Local, a.Name.Local, a.Value)
				}
			}
		case xml.Directive:
			t.Errorf("directive <!%s> in the SVG", tok)
		}
	}
	if root != "svg" {
		t.Errorf("root element %q, want svg", root)
	}
}

// layoutCases are chains shaped like the registry's, with the layout a
// drawing must pick for them: the author's positions (pinned) only where
// they make a readable picture.
var layoutCases = []struct {
	name   string
	pack   string
	pinned bool
}{
	{"two-dimensional, no edge across a node", `{"chains": [{"chainId": "diamond", "parameters": {"type": "object", "properties": {"topic": {"type": "string"}}}, "dag": {"nodes": [
	  {"id": "start", "typeId": "core.trigger.manual", "position": {"x": 300, "y": 0}},
	  {"id": "left", "typeId": "acme.a", "position": {"x": 0, "y": 300}},
	  {"id": "right", "typeId": "acme.b", "position": {"x": 600, "y": 300}},
	  {"id": "join", "typeId": "acme.c", "position": {"x": 300, "y": 600}, "inputs": {"q": "{{params.topic}}"}}],
	 "edges": [{"from": "start", "to": "left"}, {"from": "start", "to": "right"}, {"from": "left", "to": "join"}, {"from": "right", "to": "join"}]}}]}`, true},
	{"one row", `{"chains": [{"chainId": "row", "dag": {"nodes": [
	  {"id": "a", "typeId": "acme.a", "position": {"x": 0, "y": 0}},
	  {"id": "b", "typeId": "acme.b", "position": {"x": 300, "y": 0}}],
	 "edges": [{"from": "a", "to": "b"}]}}]}`, false},
	{"one row, an edge bypassing the gate", registryRow, false},
	{"two rows, an edge straight through a node", `{"chains": [{"chainId": "through", "dag": {"nodes": [
	  {"id": "a", "typeId": "acme.a", "position": {"x": 0, "y": 0}},
	  {"id": "b", "typeId": "acme.b", "position": {"x": 400, "y": 10}},
	  {"id": "c", "typeId": "acme.c", "position": {"x": 800, "y": 0}},
	  {"id": "d", "typeId": "acme.d", "position": {"x": 400, "y": 400}}],
	 "edges": [{"from": "a", "to": "c"}, {"from": "a", "to": "d"}]}}]}`, false},
	{"a node without a position", `{"chains": [{"chainId": "partial", "dag": {"nodes": [
	  {"id": "a", "typeId": "acme.a", "position": {"x": 0, "y": 0}},
	  {"id": "b", "typeId": "acme.b", "position": {"x": 300, "y": 300}},
	  {"id": "c", "typeId": "acme.c"}],
	 "edges": [{"from": "a", "to": "b"}, {"from": "b", "to": "c"}]}}]}`, false},
}

// registryRow is the registry's commonest shape: every node in one row,
// the draft's content wired straight to the sender past the approval gate
// (draft.content -> send.text), with a condition on the gate's way out.
const registryRow = `{"chains": [{"chainId": "acme.post", "label": "Draft and post", "parameters": {"type": "object", "required": ["topic"], "properties": {"topic": {"type": "string"}}},
 "dag": {"nodes": [
  {"id": "trigger", "typeId": "core.trigger.manual", "position": {"x": 0, "y": 0}},
  {"id": "draft", "typeId": "core.ai.chatCompletion", "position": {"x": 250, "y": 0}, "inputs": {"prompt": "{{params.topic}}"}},
  {"id": "approval", "typeId": "core.approvalGate", "position": {"x": 500, "y": 0}},
  {"id": "send", "typeId": "acme.slack.send", "position": {"x": 750, "y": 0}},
  {"id": "fail", "typeId": "core.noop", "position": {"x": 1000, "y": 0}}],
 "edges": [
  {"from": "trigger", "to": "draft"},
  {"from": "draft.content", "to": "approval.content"},
  {"from": "approval", "to": "send", "condition": {"type": "truthy", "left": "approved"}},
  {"from": "draft.content", "to": "send.text"},
  {"from": "approval", "to": "fail", "condition": {"type": "falsy", "left": "approved"}, "triggerRule": "none_failed"},
  {"from": "trigger", "to": "fail"}]}}]}`

func layoutChart(t *testing.T, src string) Chart {
	t.Helper()
	doc, err := jsonpos.Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return Chart{Pack: "acme@1.0.0", File: "pack.json", DAG: chain.Analyze(doc.Root, chain.Options{}).DAGs[0]}
}

// TestSVGKeepsReadableAuthorPositions: the author's positions are kept
// (Graphviz only routes the edges) where they make a readable picture, and
// Graphviz lays the chain out otherwise; the same chain always gets the
// same kind of layout.
func TestSVGKeepsReadableAuthorPositions(t *testing.T) {
	for _, tc := range layoutCases {
		t.Run(tc.name, func(t *testing.T) {
			var pinned []bool
			record := func(ctx context.Context, graphs []Graph) ([][]byte, error) {
				for _, g := range graphs {
					pinned = append(pinned, g.Pinned)
					if g.Pinned != bytes.Contains(g.DOT, []byte(`!"`)) {
						t.Errorf("pinned %v, yet pinned positions %v:\n%s", g.Pinned, !g.Pinned, g.DOT)
					}
				}
				return layout(ctx, graphs)
			}
			for range 2 {
				if err := Write(t.Context(), io.Discard, "svg", []Chart{layoutChart(t, tc.pack)}, Options{Layout: record}); err != nil {
					t.Fatal(err)
				}
			}
			if len(pinned) != 2 || pinned[0] != tc.pinned || pinned[1] != tc.pinned {
				t.Errorf("pinned = %v, want %v twice", pinned, tc.pinned)
			}
		})
	}
}
