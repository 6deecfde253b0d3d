package lsp

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
)

// replaceRange is the plain model of one edit: the whole text copied
// around the range.
func replaceRange(doc []byte, r protocol.Range, text string) ([]byte, bool) {
	start, end := offsetOf(doc, r.Start), offsetOf(doc, r.End)
	if end < start || r.End.Line < r.Start.Line {
		return doc, false
	}
	return append(append(append([]byte(nil), doc[:start]...), text...), doc[end:]...), true
}

// checkBuffer applies edits with an editBuffer and with the model, and
// compares the texts.
func checkBuffer(t *testing.T, doc string, edits []protocol.Range, texts []string) {
	t.Helper()
	b := newEditBuffer([]byte(doc))
	want := []byte(doc)
	for i, r := range edits {
		next, ok := replaceRange(want, r, texts[i])
		err := b.apply(r, texts[i])
		if ok != (err == nil) {
			t.Fatalf("edit %d %v: model ok %v, buffer error %v", i, r, ok, err)
		}
		want = next
		if got := b.Bytes(); string(got) != string(want) {
			t.Fatalf("after edit %d %v %q:\n got %q\nwant %q", i, r, texts[i], got, want)
		}
	}
}

func pos(line, char uint32) protocol.Position { return protocol.Position{Line: line, Character: char} }

func TestEditBuffer(t *testing.T) {
	doc := "{\n  \"a\": \"😀x\",\n  \"b\": 1\n}"
	checkBuffer(t, doc,
		[]protocol.Range{
			{Start: pos(1, 3), End: pos(1, 4)},   // a -> name
			{Start: pos(3, 0), End: pos(3, 1)},   // } -> two lines
			{Start: pos(0, 1), End: pos(0, 1)},   // back at the top
			{Start: pos(1, 10), End: pos(2, 2)},  // across lines, after the emoji
			{Start: pos(9, 0), End: pos(9, 5)},   // past the end
			{Start: pos(1, 99), End: pos(1, 99)}, // past the line's end
			{Start: pos(2, 3), End: pos(2, 1)},   // ends before it starts
			{Start: pos(4, 0), End: pos(1, 0)},   // ends lines before it starts
		},
		[]string{"name", "},\n{", "\n", "", "tail\n", "!", "x", "y"})
}

// TestEditBufferRandom: random edit sequences give the model's text.
func TestEditBufferRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	pieces := []string{"", "a", "\n", "😀", "é", "\r\n", "\"k\": 1,\n", "\xff"}
	for round := 0; round < 300; round++ {
		var doc strings.Builder
		for range r.IntN(40) {
			doc.WriteString(pieces[r.IntN(len(pieces))])
		}
		var edits []protocol.Range
		var texts []string
		for range r.IntN(30) {
			sl, sc := uint32(r.IntN(12)), uint32(r.IntN(8))
			el, ec := sl+uint32(r.IntN(3)), uint32(r.IntN(8))
			if r.IntN(8) == 0 {
				el = uint32(r.IntN(12))
			}
			edits = append(edits, protocol.Range{Start: pos(sl, sc), End: pos(el, ec)})
			texts = append(texts, pieces[r.IntN(len(pieces))]+pieces[r.IntN(len(pieces))])
		}
		checkBuffer(t, doc.String(), edits, texts)
	}
}

// TestManyEditsInOneChange: one didChange of 50,000 edits, one a line of a
// 2.7 MB buffer (a substitution over every line), in top-down or
// bottom-up order, is applied in well under a second (it took two
// minutes when every edit copied the buffer and counted its lines).
func TestManyEditsInOneChange(t *testing.T) {
	const n = 50000
	doc := []byte(strings.Repeat(`  "aaaaaaaaaaaaaaaaaaaaaaaa": "bbbbbbbbbbbbbbbbbbbb",`+"\n", n))
	for _, down := range []bool{true, false} {
		b := newEditBuffer(doc)
		start := time.Now()
		for i := range n {
			line := uint32(i)
			if !down {
				line = n - 1 - line
			}
			if err := b.apply(protocol.Range{Start: pos(line, 3), End: pos(line, 4)}, "x"); err != nil {
				t.Fatal(err)
			}
		}
		got := b.Bytes()
		if took := time.Since(start); took > 5*time.Second || strings.Count(string(got), `"xaaa`) != n {
			t.Errorf("top-down %v: %v, %d lines edited", down, took, strings.Count(string(got), `"xaaa`))
		}
	}
}

// FuzzEditBuffer: any text and edits give the model's text.
func FuzzEditBuffer(f *testing.F) {
	f.Add("{\n  \"a\": 1\n}", []byte{1, 3, 1, 4, 0, 0, 1, 0, 9, 9})
	f.Add("😀\r\n\xff\n", []byte{0, 1, 1, 0, 2, 2, 0, 0, 0, 7})
	f.Fuzz(func(t *testing.T, doc string, spec []byte) {
		var edits []protocol.Range
		var texts []string
		for i := 0; i+5 <= len(spec) && len(edits) < 50; i += 5 {
			s := spec[i : i+5]
			edits = append(edits, protocol.Range{Start: pos(uint32(s[0]%16), uint32(s[1]%16)), End: pos(uint32(s[2]%16), uint32(s[3]%16))})
			texts = append(texts, []string{"", "x", "\n", "😀", "ab\ncd"}[s[4]%5])
		}
		checkBuffer(t, doc, edits, texts)
	})
}
