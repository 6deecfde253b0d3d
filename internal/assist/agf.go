package assist

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strconv"
	"unicode/utf8"

	"github.com/wop-cli/wop/internal/agf"
	"github.com/wop-cli/wop/internal/config"
	"github.com/wop-cli/wop/internal/schema"
	"go.yaml.in/yaml/v3"
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

// maxYAML bounds the *.agf.yaml buffers whose sub-agents are looked for
// (the bound .wop.yaml has, config.MaxSize): an AgentFormat file is a few
// kilobytes, and yaml.v3 reads some 20 KB a millisecond, on every request.
const maxYAML = config.MaxSize

// agfMaxDepth bounds the nesting hover walks, as internal/agf bounds it.
const agfMaxDepth = 256

// sources lists the source_type file sub-agents of action_space.local_agents
// (read by internal/agf, with its bounds on hostile YAML), each resolved
// next to the document and never out of its folder (as agf lint follows
// them). A buffer that is not YAML has none.
func sources(doc Doc) []source {
	if len(doc.Text) > maxYAML {
		return nil
	}
	d, err := agf.Parse(doc.Text)
	if err != nil {
		return nil
	}
	agents, _ := d.Get("/action_space/local_agents").([]any)
	at := newPositions(doc.Text)
	var out []source
	for i, a := range agents {
		m, _ := a.(map[string]any)
		st, hasType := m["source_type"].(string)
		src, _ := m["source"].(string)
		if src == "" || hasType && st != "file" {
			continue
		}
		pos := d.Position(fmt.Sprintf("/action_space/local_agents/%d/source", i))
		span, ok := scalarSpan(at, pos, src)
		if !ok {
			continue
		}
		s := source{span: span}
		if p, ok := PackFile(filepath.Dir(doc.Path), src); ok {
			s.file = p
		}
		out = append(out, s)
	}
	return out
}

// positions turns yaml's lines and columns (columns count characters)
// into byte offsets, walking on from the last one it turned: sub-agents
// come in document order, so a file costs one pass even when a flow
// sequence holds them all on one line.
type positions struct {
	src            []byte
	lines          []int
	line, col, off int // the last position turned
}

func newPositions(src []byte) *positions {
	p := &positions{src: src, lines: []int{0}}
	for i, c := range src {
		if c == '\n' {
			p.lines = append(p.lines, i+1)
		}
	}
	return p
}

// offset returns the byte offset of pos, and the end of its line.
func (p *positions) offset(pos agf.Pos) (off, end int, ok bool) {
	if pos.Line < 1 || pos.Line > len(p.lines) || pos.Column < 1 {
		return 0, 0, false
	}
	end = len(p.src)
	if pos.Line < len(p.lines) {
		end = p.lines[pos.Line]
	}
	if pos.Line != p.line || pos.Column < p.col {
		p.line, p.col, p.off = pos.Line, 1, p.lines[pos.Line-1]
	}
	for p.col < pos.Column && p.off < end {
		_, size := utf8.DecodeRune(p.src[p.off:end])
		p.off += size
		p.col++
	}
	return p.off, end, p.col == pos.Column && p.off < end
}

// scalarSpan finds the bytes of the one-line scalar value at pos, quotes
// excluded.
func scalarSpan(p *positions, pos agf.Pos, value string) (Span, bool) {
	off, end, ok := p.offset(pos)
	if !ok {
		return Span{}, false
	}
	if q := p.src[off]; q == '"' || q == '\'' {
		off++
		close := bytes.IndexByte(p.src[off:end], q)
		if close < 0 || string(p.src[off:off+close]) != value {
			return Span{}, false // escapes, or a multi-line string: no span to give
		}
		return Span{off, off + close}, true
	}
	stop := min(off+len(value), end)
	if string(p.src[off:stop]) != value {
		return Span{}, false // a folded or multi-line scalar: no span to give
	}
	return Span{off, stop}, true
}

// hoverAgf describes the key or scalar value at off of an *.agf.yaml by
// the AgentFormat schema's own words. A buffer that is not YAML (yet) has
// no hover.
func hoverAgf(doc Doc, off int) (string, Span, bool) {
	if len(doc.Text) > maxYAML {
		return "", Span{}, false
	}
	var root yaml.Node
	if yaml.Unmarshal(doc.Text, &root) != nil || len(root.Content) == 0 {
		return "", Span{}, false
	}
	at := newPositions(doc.Text)
	path, span, ok := yamlAt(at, root.Content[0], off, nil)
	if !ok {
		return "", Span{}, false
	}
	set, err := schema.Default()
	if err != nil {
		return "", Span{}, false
	}
	md := describe(set.At(schema.AgentFormatID, path), label(path))
	return md, span, md != ""
}

// yamlAt finds the key or scalar value of n's tree whose text holds off,
// and its JSON pointer tokens. Aliases are not followed.
func yamlAt(at *positions, n *yaml.Node, off int, path []string) ([]string, Span, bool) {
	if len(path) > agfMaxDepth {
		return nil, Span{}, false
	}
	switch n.Kind {
	case yaml.ScalarNode:
		if s, ok := scalarSpan(at, agf.Pos{Line: n.Line, Column: n.Column}, n.Value); ok && off >= s.Start && off <= s.End {
			return path, s, true
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			p := append(path[:len(path):len(path)], k.Value)
			if k.Kind == yaml.ScalarNode {
				if s, ok := scalarSpan(at, agf.Pos{Line: k.Line, Column: k.Column}, k.Value); ok && off >= s.Start && off <= s.End {
					return p, s, true
				}
			}
			if got, s, ok := yamlAt(at, v, off, p); ok {
				return got, s, true
			}
		}
	case yaml.SequenceNode:
		for i, it := range n.Content {
			if got, s, ok := yamlAt(at, it, off, append(path[:len(path):len(path)], strconv.Itoa(i))); ok {
				return got, s, true
			}
		}
	}
	return nil, Span{}, false
}
