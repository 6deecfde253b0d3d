package assist

import (
	"bytes"
	"fmt"
	"path/filepath"
	"unicode/utf8"

	"github.com/wop-cli/wop/internal/agf"
)

// source is a sub-agent's source in an *.agf.yaml: where it is written and
// the file it names.
type source struct {
	span Span
	file string // absolute; "" when it names no file next to the document
}

// defineSource answers go-to-definition on a sub-agent's source: the file.
func defineSource(_ Env, doc Doc, off int) []Location {
	for _, s := range sources(doc) {
		if s.file != "" && off >= s.span.Start && off <= s.span.End {
			return []Location{{Path: s.file}}
		}
	}
	return nil
}

// sourceLinks lists the sub-agent sources whose files exist.
func sourceLinks(_ Env, doc Doc) []Link {
	var links []Link
	for _, s := range sources(doc) {
		if s.file != "" {
			links = append(links, Link{Span: s.span, Target: s.file})
		}
	}
	return links
}

// sources lists the source_type file sub-agents of action_space.local_agents
// (read by internal/agf, with its bounds on hostile YAML), each resolved
// next to the document and never out of its folder (as agf lint follows
// them). A buffer that is not YAML has none.
func sources(doc Doc) []source {
	d, err := agf.Parse(doc.Text)
	if err != nil {
		return nil
	}
	agents, _ := d.Get("/action_space/local_agents").([]any)
	lines := lineOffsets(doc.Text)
	var out []source
	for i, a := range agents {
		m, _ := a.(map[string]any)
		st, hasType := m["source_type"].(string)
		src, _ := m["source"].(string)
		if src == "" || hasType && st != "file" {
			continue
		}
		pos := d.Position(fmt.Sprintf("/action_space/local_agents/%d/source", i))
		span, ok := scalarSpan(doc.Text, lines, pos, src)
		if !ok {
			continue
		}
		s := source{span: span}
		if p, ok := packFile(filepath.Dir(doc.Path), src); ok {
			s.file = p
		}
		out = append(out, s)
	}
	return out
}

func lineOffsets(src []byte) []int {
	starts := []int{0}
	for i, c := range src {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// scalarSpan finds the bytes of the one-line scalar value at position n
// (yaml counts columns in characters), quotes excluded.
func scalarSpan(src []byte, lines []int, n agf.Pos, value string) (Span, bool) {
	if n.Line < 1 || n.Line > len(lines) || n.Column < 1 {
		return Span{}, false
	}
	off := lines[n.Line-1]
	end := len(src)
	if n.Line < len(lines) {
		end = lines[n.Line]
	}
	for col := 1; col < n.Column && off < end; col++ {
		_, size := utf8.DecodeRune(src[off:end])
		off += size
	}
	if off >= end {
		return Span{}, false
	}
	if q := src[off]; q == '"' || q == '\'' {
		close := bytes.IndexByte(src[off+1:end], q)
		if close < 0 {
			return Span{}, false
		}
		return Span{off + 1, off + 1 + close}, true
	}
	stop := min(off+len(value), end)
	if string(src[off:stop]) != value {
		return Span{}, false // a folded or multi-line scalar: no span to give
	}
	return Span{off, stop}, true
}
