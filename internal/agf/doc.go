// Package agf reads AgentFormat (*.agf.yaml) agent definitions with line and
// column positions, holds the checks of the agf-* lint rules (the rules
// themselves are entries of the one registry in internal/lint, which runs
// these checks through Options.Rules), and imports agents into OpenWOP packs.
package agf

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// maxDepth bounds nesting, as for JSON.
const maxDepth = 256

// Doc is a parsed AgentFormat file: its JSON-shaped value (for the schema)
// and the YAML nodes behind each JSON pointer (for positions).
type Doc struct {
	Value any
	nodes map[string]*yaml.Node
	count int // values converted, to stop alias bombs
}

// maxValues bounds how many values anchors and aliases may expand to.
const maxValues = 200_000

// Pos is a 1-based line and column.
type Pos struct{ Line, Column int }

// ParseError is a YAML syntax error with its position.
type ParseError struct {
	Pos Pos
	Msg string
}

func (e *ParseError) Error() string { return fmt.Sprintf("%d:%d: %s", e.Pos.Line, e.Pos.Column, e.Msg) }

// Parse reads one YAML document. Duplicate keys, a second document,
// anchors that expand beyond reason and nesting deeper than 256 levels are
// errors. Merge keys (<<) are expanded as YAML 1.1 defines them.
func Parse(src []byte) (*Doc, error) {
	dec := yaml.NewDecoder(bytes.NewReader(src))
	var root yaml.Node
	if err := dec.Decode(&root); err != nil && !errors.Is(err, io.EOF) {
		return nil, yamlError(src, err)
	}
	if root.Kind == 0 || len(root.Content) == 0 {
		return nil, &ParseError{Pos: Pos{1, 1}, Msg: "empty document"}
	}
	if err := secondDocument(src, dec); err != nil {
		return nil, err
	}
	d := &Doc{nodes: map[string]*yaml.Node{}}
	v, err := d.convert(root.Content[0], "", 0)
	if err != nil {
		return nil, err
	}
	d.Value = v
	return d, nil
}

// secondDocument reports a document after the first: runtimes read only
// the first, so whatever the second says is silently ignored. An empty
// trailing "---" says nothing and passes.
func secondDocument(src []byte, dec *yaml.Decoder) error {
	var next yaml.Node
	err := dec.Decode(&next)
	switch {
	case errors.Is(err, io.EOF):
		return nil
	case err != nil:
		return yamlError(src, err)
	case len(next.Content) == 0 || next.Content[0].Kind == yaml.ScalarNode && next.Content[0].ShortTag() == "!!null":
		return nil
	}
	return &ParseError{Pos: Pos{next.Line, next.Column}, Msg: "a second YAML document starts here; runtimes read only the first, so this one is ignored: move it to a file of its own"}
}

var lineRE = strings.NewReplacer("yaml: ", "")

func yamlError(src []byte, err error) error {
	msg := lineRE.Replace(err.Error())
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		msg = te.Errors[0]
	}
	// yaml.v3 says "line N: ..."; lift the line into the position.
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if n, tail, ok := strings.Cut(rest, ":"); ok {
			if line, err := strconv.Atoi(n); err == nil {
				tail = strings.TrimSpace(tail)
				if at, ok := indentingTab(src, line, tail); ok {
					return &ParseError{Pos: at, Msg: "a tab indents this line; YAML indents with spaces only: replace the tab with spaces"}
				}
				return &ParseError{Pos: Pos{line, 1}, Msg: tail}
			}
		}
	}
	return &ParseError{Pos: Pos{1, 1}, Msg: msg}
}

// indentingTab finds the tab behind a yaml.v3 error about one. The parser
// often names the line before the tab's (the line its current token
// started on), so the tab is looked for in the indentation of that line and
// the next; msg must be one the tokenizer gives for a tab, or for a tab
// that cannot start a token.
func indentingTab(src []byte, line int, msg string) (Pos, bool) {
	if !strings.Contains(msg, "tab character") && !strings.Contains(msg, "cannot start any token") {
		return Pos{}, false
	}
	lines := strings.SplitAfter(string(src), "\n")
	for l := max(line, 1); l <= line+1 && l <= len(lines); l++ {
		for col, c := range lines[l-1] {
			if c == '\t' {
				return Pos{l, col + 1}, true
			}
			if c != ' ' {
				break
			}
		}
	}
	return Pos{}, false
}

// convert turns a node into the JSON data model (map[string]any, []any,
// string, json.Number, bool, nil), recording each node's pointer.
func (d *Doc) convert(n *yaml.Node, ptr string, depth int) (any, error) {
	if depth > maxDepth {
		return nil, &ParseError{Pos: Pos{n.Line, n.Column}, Msg: fmt.Sprintf("nesting deeper than %d levels", maxDepth)}
	}
	d.nodes[ptr] = n
	if d.count++; d.count > maxValues {
		return nil, &ParseError{Pos: Pos{n.Line, n.Column}, Msg: fmt.Sprintf("the document expands to more than %d values (anchors and aliases?)", maxValues)}
	}
	switch n.Kind {
	case yaml.AliasNode:
		return d.convert(n.Alias, ptr, depth+1)
	case yaml.MappingNode:
		return d.mapping(n, ptr, depth)
	case yaml.SequenceNode:
		out := make([]any, len(n.Content))
		for i, c := range n.Content {
			val, err := d.convert(c, ptr+"/"+strconv.Itoa(i), depth+1)
			if err != nil {
				return nil, err
			}
			out[i] = val
		}
		return out, nil
	case yaml.ScalarNode:
		return scalar(n)
	}
	return nil, &ParseError{Pos: Pos{n.Line, n.Column}, Msg: "unsupported YAML node"}
}

// mapping converts a mapping node. Its own keys come first and win; then
// each merge key (<<) source adds the keys not yet set, earlier sources
// first, as YAML 1.1 merge keys define. Merged members have no position of
// their own here: findings about them point at the mapping that merges.
func (d *Doc) mapping(n *yaml.Node, ptr string, depth int) (map[string]any, error) {
	m := make(map[string]any, len(n.Content)/2)
	var merges []*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			return nil, &ParseError{Pos: Pos{k.Line, k.Column}, Msg: "mapping keys must be plain strings"}
		}
		if isMerge(k) {
			if merges != nil {
				return nil, &ParseError{Pos: Pos{k.Line, k.Column}, Msg: "merge key << appears twice in one mapping; list every source in one << [*a, *b]"}
			}
			var err error
			if merges, err = mergeSources(k, v); err != nil {
				return nil, err
			}
			continue
		}
		if _, dup := m[k.Value]; dup {
			return nil, &ParseError{Pos: Pos{k.Line, k.Column}, Msg: fmt.Sprintf("key %q appears twice in one mapping; YAML readers keep one silently, delete the other", k.Value)}
		}
		child := ptr + "/" + strings.ReplaceAll(strings.ReplaceAll(k.Value, "~", "~0"), "/", "~1")
		d.nodes[child+"#key"] = k
		val, err := d.convert(v, child, depth+1)
		if err != nil {
			return nil, err
		}
		m[k.Value] = val
	}
	for _, src := range merges {
		saved := d.nodes
		d.nodes = map[string]*yaml.Node{} // merged members keep no positions
		val, err := d.convert(src, "", depth+1)
		d.nodes = saved
		if err != nil {
			return nil, err
		}
		for k, v := range obj(val) {
			if _, set := m[k]; !set {
				m[k] = v
			}
		}
	}
	return m, nil
}

// isMerge reports whether a key is the YAML merge key (a plain <<, not a
// quoted "<<", which is an ordinary key).
func isMerge(k *yaml.Node) bool { return k.ShortTag() == "!!merge" }

// mergeSources returns the mappings a merge key's value names: one mapping
// (usually an alias) or a sequence of them.
func mergeSources(k, v *yaml.Node) ([]*yaml.Node, error) {
	items := []*yaml.Node{v}
	if v.Kind == yaml.SequenceNode {
		items = v.Content
	}
	out := make([]*yaml.Node, 0, len(items))
	for _, it := range items {
		target := it
		for target.Kind == yaml.AliasNode {
			target = target.Alias
		}
		if target.Kind != yaml.MappingNode {
			return nil, &ParseError{Pos: Pos{k.Line, k.Column}, Msg: "a merge key << takes a mapping or a list of mappings (usually *anchors)"}
		}
		out = append(out, it)
	}
	return out, nil
}

func scalar(n *yaml.Node) (any, error) {
	switch n.ShortTag() {
	case "!!null":
		return nil, nil
	case "!!bool":
		var b bool
		err := n.Decode(&b)
		return b, err
	case "!!int", "!!float":
		var f float64
		if err := n.Decode(&f); err != nil {
			return nil, err
		}
		return json.Number(strconv.FormatFloat(f, 'g', -1, 64)), nil
	}
	return n.Value, nil
}

// Position returns where the value at a JSON pointer is (or, for a missing
// member, its nearest ancestor).
func (d *Doc) Position(ptr string) Pos {
	for {
		if n, ok := d.nodes[ptr]; ok {
			return Pos{n.Line, n.Column}
		}
		i := strings.LastIndexByte(ptr, '/')
		if i < 0 {
			return Pos{1, 1}
		}
		ptr = ptr[:i]
	}
}

// KeyPosition returns where the key of the member at ptr is.
func (d *Doc) KeyPosition(ptr string) Pos {
	if n, ok := d.nodes[ptr+"#key"]; ok {
		return Pos{n.Line, n.Column}
	}
	return d.Position(ptr)
}

// Get walks a JSON pointer through the value; nil when absent.
func (d *Doc) Get(ptr string) any {
	v := d.Value
	if ptr == "" {
		return v
	}
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch x := v.(type) {
		case map[string]any:
			v = x[tok]
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(x) {
				return nil
			}
			v = x[i]
		default:
			return nil
		}
	}
	return v
}
