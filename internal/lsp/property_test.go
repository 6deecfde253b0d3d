package lsp

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/wop-cli/wop/internal/lintrun"
	"github.com/wop-cli/wop/internal/report"
	"go.lsp.dev/protocol"
)

// The property: for any pack and buffer contents, what the server shows
// is what `wop pack lint --format json` says about the same contents on
// disk. Edits arrive as LSP ranges (UTF-16 columns), so the edit path and
// the position conversion are under test too.

// editFiles are the files the edits go to, relative to the pack.
var editFiles = []string{"pack.json", "schemas/uppercase.config.json", "README.md"}

// snippets are what an edit inserts: JSON punctuation, members that rules
// judge, non-ASCII text before values, and line breaks.
var snippets = []string{`"`, `{`, `}`, `,`, `:`, `[`, "\n", `"name": "x"`, `"./schemas/uppercase.input.json"`, `"schemas/nope.json"`,
	`"license": "MIT-ish"`, `"version": "1.0"`, "😀", "日本語", `"$id": "https://example.com/x.json"`, `"engines": {"openwop": ">=1.0.0"}`, "\t", `\u00e9`, "null"}

// edit is one change: in file, replace bytes [at, at+del) with text.
type edit struct {
	file    int
	at, del int
	text    string
}

// editsFrom decodes a fuzz input into edits: four bytes an edit.
func editsFrom(data []byte) []edit {
	var out []edit
	for len(data) >= 4 {
		b := data[:4]
		data = data[4:]
		e := edit{file: int(b[0]) % len(editFiles), at: int(binary.BigEndian.Uint16(b[1:3]))}
		switch op := b[3] % 4; op {
		case 0, 1:
			e.text = snippets[int(b[3]/4)%len(snippets)]
		case 2:
			e.del = int(b[3]/4) % 12
		default:
			e.del, e.text = int(b[3]/4)%6, snippets[int(b[0]/3)%len(snippets)]
		}
		out = append(out, e)
	}
	return out
}

// checkEdits applies edits through the server's didChange and compares,
// after each, the server's diagnostics with the CLI's on the same bytes.
func checkEdits(t *testing.T, edits []edit) {
	dir := copyExample(t)
	srv := newServer(Options{Env: testEnv(filepath.Dir(dir), io.Discard)})
	srv.conn = &nopConn{}
	texts := map[string][]byte{}
	for _, name := range editFiles {
		path := filepath.Join(dir, filepath.FromSlash(name))
		texts[path] = []byte(read(t, path))
		srv.didOpen(&protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: uriOf(path), Version: 1, Text: string(texts[path])}})
	}
	for i, e := range edits {
		path := filepath.Join(dir, filepath.FromSlash(editFiles[e.file]))
		text := texts[path]
		at := runeStart(text, e.at%(len(text)+1))
		end := runeStart(text, min(at+e.del, len(text)))
		r := rangeOf(text, at, end)
		srv.didChange(&didChangeParams{TextDocument: protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: uriOf(path)}, Version: int32(i + 2)},
			ContentChanges: []contentChange{{Range: &r, Text: e.text}}})
		texts[path] = slices.Concat(text[:at], []byte(e.text), text[end:])
		if got, _ := srv.text(path); !bytes.Equal(got, texts[path]) {
			t.Fatalf("edit %d: the server's text of %s is %q, want %q", i, editFiles[e.file], got, texts[path])
		}
	}
	overlay := srv.overlay()
	server := serverVerdict(srv, dir, overlay)
	cli := cliVerdict(t, overlay, dir)
	if !slices.Equal(server, cli) {
		t.Fatalf("after %d edits the server and the CLI disagree\nserver:\n  %s\ncli:\n  %s\ntexts: %q", len(edits), strings.Join(server, "\n  "), strings.Join(cli, "\n  "), texts)
	}
}

// runeStart moves off back to the start of the character it is in.
func runeStart(b []byte, off int) int {
	for off > 0 && off < len(b) && !utf8.RuneStart(b[off]) {
		off--
	}
	return off
}

// serverVerdict is what the server shows for the pack, one line a
// finding: file (from the pack), lint's line and column read back from
// the LSP range, code, severity, message.
func serverVerdict(srv *Server, dir string, overlay map[string][]byte) []string {
	var out []string
	for path, fs := range srv.diagnose(context.Background(), unit{pack: dir}, overlay) {
		text, ok := overlay[path]
		if !ok {
			text, _ = os.ReadFile(path)
		}
		rel, _ := filepath.Rel(dir, path)
		for _, f := range fs {
			pd := f.protocol()
			line, col := lintPosOf(text, pd.Range.Start)
			if f.d.Start.Line == 0 {
				line, col = 0, 0
			}
			code, _ := pd.Code.(string)
			sev := map[protocol.DiagnosticSeverity]string{1: "error", 2: "warning", 3: "info"}[pd.Severity]
			msg := strings.ReplaceAll(pd.Message, filepath.ToSlash(dir)+"/", "")
			out = append(out, fmt.Sprintf("%s:%d:%d %s %s %s", filepath.ToSlash(rel), line, col, code, sev, msg))
		}
	}
	slices.Sort(out)
	return out
}

// cliVerdict writes the buffers into a copy of the pack and lints it as
// `wop pack lint --format json text-tools` does: lintrun.Run, then the
// json report, read back.
func cliVerdict(t *testing.T, overlay map[string][]byte, dir string) []string {
	copyDir := copyExample(t)
	for path, text := range overlay {
		rel, _ := filepath.Rel(dir, path)
		if err := os.WriteFile(filepath.Join(copyDir, rel), text, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := testEnv(filepath.Dir(copyDir), io.Discard)
	res, err := lintrun.Run(context.Background(), env, lintrun.Options{Paths: []string{"text-tools"}, NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := report.Print(&buf, "json", report.Input{Tool: "wop", Diags: res.Diags, Packs: res.Packs}); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Diagnostics []struct {
			Rule, Severity, File, Message string
			Line, Column                  int
		}
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range doc.Diagnostics {
		file := strings.TrimPrefix(d.File, "text-tools/")
		msg := d.Message
		out = append(out, fmt.Sprintf("%s:%d:%d %s %s %s", file, d.Line, d.Column, d.Rule, d.Severity, msg))
	}
	slices.Sort(out)
	return out
}

// TestServerMatchesCLI is the property over random edit sequences.
func TestServerMatchesCLI(t *testing.T) {
	n := 40
	if testing.Short() {
		n = 8
	}
	for seed := range n {
		rng := rand.New(rand.NewPCG(uint64(seed), 27))
		data := make([]byte, 4*(1+rng.IntN(10)))
		for i := range data {
			data[i] = byte(rng.Uint32())
		}
		t.Run(fmt.Sprint(seed), func(t *testing.T) { checkEdits(t, editsFrom(data)) })
	}
}

// FuzzServerMatchesCLI is the property with the fuzzer choosing the edits.
func FuzzServerMatchesCLI(f *testing.F) {
	f.Add([]byte{0, 0, 40, 0, 0, 0, 41, 8})
	f.Add([]byte{1, 0, 3, 2, 0, 0, 10, 50, 2, 0, 0, 5})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 4*24 {
			data = data[:4*24]
		}
		checkEdits(t, editsFrom(data))
	})
}

// lintPosOf turns an LSP position into lint's 1-based line and code-point
// column (the property test compares the two).
func lintPosOf(text []byte, p protocol.Position) (line, col int) {
	off := offsetOf(text, p)
	start := lineStart(text, int(p.Line))
	return int(p.Line) + 1, utf8.RuneCount(text[start:off]) + 1
}
