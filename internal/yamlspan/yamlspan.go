// Package yamlspan finds the exact bytes of a YAML scalar in the text it
// was parsed from and writes a replacement in the same quoting: the fix of
// a "did you mean" in a YAML file (.wop.yaml, *.agf.yaml), which has no
// JSON pointer edit, is a replacement of those bytes.
package yamlspan

import (
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/wop-cli/wop/internal/diag"
	"go.yaml.in/yaml/v3"
)

// Replace is the fix turning the scalar n, parsed from src, into s: the
// bytes n occupies, the text there and s written in n's style (plain,
// 'single' or "double" quoted; a plain scalar that s could not be written
// as plainly becomes double quoted). It gives none for what it cannot
// place exactly: a block scalar, a node with a tag or an anchor before it,
// a position past the text, a plain scalar folded over lines.
func Replace(src []byte, n *yaml.Node, s string) (diag.Fix, bool) {
	if n == nil || n.Kind != yaml.ScalarNode || n.Value == s {
		return diag.Fix{}, false
	}
	start, ok := offset(src, n.Line, n.Column)
	if !ok {
		return diag.Fix{}, false
	}
	var end int
	switch n.Style {
	case 0:
		if !strings.HasPrefix(string(src[start:]), n.Value) || n.Value == "" {
			return diag.Fix{}, false
		}
		end = start + len(n.Value)
	case yaml.DoubleQuotedStyle:
		end = closingQuote(src, start, '"')
	case yaml.SingleQuotedStyle:
		end = closingQuote(src, start, '\'')
	default:
		return diag.Fix{}, false
	}
	if end < 0 || !means(src[start:end], n.Value) {
		return diag.Fix{}, false
	}
	return diag.Fix{Old: n.Value, New: s, Start: start, End: end, Was: string(src[start:end]), Text: write(s, n.Style)}, true
}

// offset is the byte offset of a 1-based line and column (yaml.v3 counts
// columns in characters).
func offset(src []byte, line, col int) (int, bool) {
	if line < 1 || col < 1 {
		return 0, false
	}
	off := 0
	for l := 1; l < line; l++ {
		i := strings.IndexByte(string(src[off:]), '\n')
		if i < 0 {
			return 0, false
		}
		off += i + 1
	}
	for c := 1; c < col; c++ {
		if off >= len(src) || src[off] == '\n' {
			return 0, false
		}
		_, size := utf8.DecodeRune(src[off:])
		off += size
	}
	return off, off < len(src)
}

// closingQuote is the offset just past the quote closing the scalar that
// opens at start, on the same line, or -1.
func closingQuote(src []byte, start int, q byte) int {
	if start >= len(src) || src[start] != q {
		return -1
	}
	for i := start + 1; i < len(src) && src[i] != '\n'; i++ {
		switch {
		case q == '"' && src[i] == '\\':
			i++
		case src[i] == q && q == '\'' && i+1 < len(src) && src[i+1] == '\'':
			i++
		case src[i] == q:
			return i + 1
		}
	}
	return -1
}

// means reports whether text, read as a YAML scalar alone, is value: what
// was found is the node, not a neighbour that starts alike.
func means(text []byte, value string) bool {
	var got string
	return yaml.Unmarshal(text, &got) == nil && got == value
}

// plainSafe are the strings a plain scalar holds as written (keys, ids,
// enum values); anything else is quoted.
var plainSafe = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.\-/]*$`)

// write is s as a scalar in style.
func write(s string, style yaml.Style) string {
	switch {
	case style == yaml.SingleQuotedStyle:
		return "'" + strings.ReplaceAll(s, "'", "''") + "'"
	case style == 0 && plainSafe.MatchString(s) && plainString(s):
		return s
	}
	return strconv.Quote(s)
}

// plainString reports whether s written plainly reads back as the string s
// (not true, null or a number).
func plainString(s string) bool {
	var doc yaml.Node
	if yaml.Unmarshal([]byte(s), &doc) != nil || len(doc.Content) != 1 {
		return false
	}
	n := doc.Content[0]
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!str" && n.Value == s
}
