package jsfacts

import (
	"strings"

	"github.com/tdewolff/parse/v2/js"
)

// propName is a property's literal name ("" when computed or spread).
func propName(p js.Property) string {
	if m, ok := p.Value.(*js.MethodDecl); ok && (p.Name == nil || !p.Name.IsSet()) {
		if m.Name.IsComputed() || m.Name.Private != nil {
			return ""
		}
		return unquote(m.Name.Literal.Data)
	}
	if p.Name == nil || p.Name.IsComputed() {
		if p.Name == nil && !p.Spread {
			if v, ok := p.Value.(*js.Var); ok { // shorthand { nodes }
				return string(v.Data)
			}
		}
		return ""
	}
	return unquote(p.Name.Literal.Data)
}

// propValue is a property's value (shorthand { x } gives the variable x).
func propValue(p js.Property) js.IExpr { return p.Value }

func unquote(b []byte) string {
	s := string(b)
	if len(s) >= 2 && (s[0] == '\'' || s[0] == '"' || s[0] == '`') && s[len(s)-1] == s[0] {
		s = s[1 : len(s)-1]
		if strings.ContainsRune(s, '\\') {
			return "" // an escape: not a name the analysis can be sure of
		}
	}
	return s
}

// stringLit returns the value of a string literal, "" for anything else.
func stringLit(e js.IExpr) string {
	if l, ok := literal(e); ok && l.TokenType == js.StringToken {
		return unquote(l.Data)
	}
	if t, ok := e.(*js.TemplateExpr); ok && t.Tag == nil && len(t.List) == 0 {
		return unquote(t.Tail)
	}
	return ""
}

func literal(e js.IExpr) (js.LiteralExpr, bool) {
	switch l := e.(type) {
	case js.LiteralExpr:
		return l, true
	case *js.LiteralExpr:
		return *l, true
	}
	return js.LiteralExpr{}, false
}

// litName is the name of a member (the Y of a.b).
func litName(e js.IExpr) string {
	if l, ok := literal(e); ok {
		return string(l.Data)
	}
	return ""
}

func nameData(v *js.Var) []byte {
	if v == nil {
		return nil
	}
	return v.Data
}

func litData(e js.IExpr) []byte {
	if l, ok := literal(e); ok {
		return l.Data
	}
	return nil
}

func calleeName(e js.IExpr) js.IExpr {
	if d, ok := e.(*js.DotExpr); ok {
		return d.Y
	}
	return e
}

// exprData is the member name or literal an expression ends with.
func (a *analysis) exprData(e js.IExpr) []byte { return litData(calleeName(e)) }

// dotPath renders a.b.c for a chain of names (undeclared or not), "" for
// anything else.
func dotPath(e js.IExpr) string {
	switch e := e.(type) {
	case *js.Var:
		return string(e.Data)
	case *js.DotExpr:
		if x := dotPath(e.X); x != "" {
			if n := litName(e.Y); n != "" {
				return x + "." + n
			}
		}
	}
	return ""
}

// render writes an expression back as JavaScript, shortened for a message.
func render(e js.IExpr) string {
	var b strings.Builder
	e.JS(&b)
	s := strings.Join(strings.Fields(b.String()), " ")
	if len(s) > 40 {
		s = s[:37] + "..."
	}
	return s
}
