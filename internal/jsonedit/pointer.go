package jsonedit

import (
	"fmt"
	"strings"
)

// Tokens splits an RFC 6901 pointer into unescaped reference tokens; ""
// (the whole document) has none.
func Tokens(ptr string) ([]string, error) {
	if ptr == "" {
		return nil, nil
	}
	if ptr[0] != '/' {
		return nil, fmt.Errorf("pointer %q must start with /", ptr)
	}
	toks := strings.Split(ptr[1:], "/")
	for i, t := range toks {
		if strings.Contains(strings.ReplaceAll(strings.ReplaceAll(t, "~0", ""), "~1", ""), "~") {
			return nil, fmt.Errorf("pointer %q: ~ must be followed by 0 or 1", ptr)
		}
		toks[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
	}
	return toks, nil
}

// Pointer joins tokens into an RFC 6901 pointer, escaping ~ and /.
func Pointer(tokens ...string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(strings.ReplaceAll(strings.ReplaceAll(t, "~", "~0"), "/", "~1"))
	}
	return b.String()
}
