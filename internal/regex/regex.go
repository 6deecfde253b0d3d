// Package regex compiles the ECMAScript regular expressions that JSON
// Schema and AgentFormat files carry with Go's RE2, and tells a pattern RE2
// cannot check (it uses a feature RE2 lacks) apart from an invalid one; and
// it defers compiling wop's own expressions to their first use (Lazy).
package regex

import (
	"errors"
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"
)

// Compile compiles expr with RE2. When RE2 refuses it only because it uses
// an ECMAScript feature RE2 lacks, err is nil, re is nil and lacks names the
// feature: the pattern may well be valid, wop just cannot check it.
func Compile(expr string) (re *regexp.Regexp, lacks string, err error) {
	re, err = regexp.Compile(expr)
	if err == nil {
		return re, "", nil
	}
	if feature := ecmaOnly(err); feature != "" {
		return nil, feature, nil
	}
	return nil, "", err
}

// ecmaOnly names the ECMAScript feature behind an RE2 parse error, or "".
func ecmaOnly(err error) string {
	var se *syntax.Error
	if !errors.As(err, &se) {
		return ""
	}
	switch {
	case se.Code == syntax.ErrInvalidPerlOp && (se.Expr == "(?=" || se.Expr == "(?!"):
		return "lookahead " + se.Expr + "...)"
	case se.Code == syntax.ErrInvalidNamedCapture && (strings.HasPrefix(se.Expr, "(?<=") || strings.HasPrefix(se.Expr, "(?<!")):
		return "lookbehind " + se.Expr[:4] + "...)"
	case se.Code == syntax.ErrInvalidEscape && len(se.Expr) == 2:
		switch c := se.Expr[1]; {
		case c >= '1' && c <= '9':
			return "backreference " + se.Expr
		case c == 'k':
			return `named backreference \k<...>`
		case c == 'u':
			return `\u escape (RE2 writes \x{...})`
		case c == 'c':
			return `control escape \c`
		}
	}
	return ""
}

// Lazy returns expr compiled on first use (it panics then if expr is
// invalid, as regexp.MustCompile does): a package-level expression made
// with Lazy costs nothing at start-up, so a run that never needs it (wop
// --version, a lint with no file of that kind) never compiles it.
func Lazy(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
