package agf

import (
	"fmt"
	"strings"
)

// Path is a parsed path expression: <alias|parent>.(input|output).<field>...
// where each further segment is a field name or "[]" (iterate an array).
type Path struct {
	Root     string   // an agent alias or "parent"
	Side     string   // "input" or "output"
	Segments []string // fields and "[]"
}

// Iterates reports whether the path walks an array with "[]".
func (p Path) Iterates() bool {
	for _, s := range p.Segments {
		if s == "[]" {
			return true
		}
	}
	return false
}

// ParsePath parses a path expression. Identifiers are letters, digits and
// underscores, not starting with a digit, as aliases are.
func ParsePath(s string) (Path, error) {
	if s == "" {
		return Path{}, fmt.Errorf("empty path expression")
	}
	parts := strings.Split(s, ".")
	if len(parts) < 3 {
		return Path{}, fmt.Errorf("%q is too short: write <alias|parent>.(input|output).<field>", s)
	}
	for i, p := range parts {
		switch {
		case p == "":
			return Path{}, fmt.Errorf("%q has an empty segment at position %d", s, i+1)
		case p == "[]" && i >= 2:
		case !isIdent(p):
			return Path{}, fmt.Errorf("%q: segment %q is not an identifier (letters, digits, _) or []", s, p)
		}
	}
	if parts[1] != "input" && parts[1] != "output" {
		return Path{}, fmt.Errorf("%q: the second segment must be input or output, not %q", s, parts[1])
	}
	return Path{Root: parts[0], Side: parts[1], Segments: parts[2:]}, nil
}

func isIdent(s string) bool {
	for i, r := range s {
		switch {
		case r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
		case r >= '0' && r <= '9' && i > 0:
		default:
			return false
		}
	}
	return s != ""
}

// String writes the path back in its source form.
func (p Path) String() string {
	return strings.Join(append([]string{p.Root, p.Side}, p.Segments...), ".")
}
