package jsfacts

import (
	"github.com/tdewolff/parse/v2/js"
)

// mentions evaluates a condition and returns the inputs it reads (directly,
// through a variable holding one, or something derived from one), each
// with the line of its first mention.
func (a *analysis) mentions(cond js.IExpr) map[string]Pos {
	out := map[string]Pos{}
	a.collect(cond, out, 0)
	return out
}

func (a *analysis) collect(e js.IExpr, out map[string]Pos, depth int) {
	if e == nil || depth > maxDepth || !a.step() {
		return
	}
	v := a.eval(e)
	if v.fromInput() {
		if _, seen := out[v.name]; !seen {
			out[v.name] = a.exprLine(e)
		}
		return
	}
	switch e := e.(type) {
	case *js.UnaryExpr:
		a.collect(e.X, out, depth+1)
	case *js.BinaryExpr:
		a.collect(e.X, out, depth+1)
		a.collect(e.Y, out, depth+1)
	case *js.GroupExpr:
		a.collect(e.X, out, depth+1)
	case *js.CallExpr:
		a.collect(e.X, out, depth+1)
		for _, arg := range e.Args.List {
			a.collect(arg.Value, out, depth+1)
		}
	case *js.DotExpr:
		a.collect(e.X, out, depth+1)
	case *js.IndexExpr:
		a.collect(e.X, out, depth+1)
	case *js.CondExpr:
		a.collect(e.Cond, out, depth+1)
	}
}

// inputOf returns the input an expression is, as it is, or "".
func (a *analysis) inputOf(e js.IExpr) string {
	v := a.eval(e)
	if v.k == vInput || v.k == vDefaulted {
		return v.name
	}
	return ""
}

// presenceTest returns the input a condition requires to be there:
// x.a, Array.isArray(x.a), typeof x.a === 't', x.a != null, x.a && ...
func (a *analysis) presenceTest(e js.IExpr) string {
	switch e := e.(type) {
	case *js.GroupExpr:
		return a.presenceTest(e.X)
	case *js.BinaryExpr:
		switch e.Op {
		case js.AndToken:
			if n := a.presenceTest(e.X); n != "" {
				return n
			}
			return a.presenceTest(e.Y)
		case js.NotEqToken, js.NotEqEqToken:
			if nullish(e.Y) {
				return a.inputOf(e.X)
			}
		case js.EqEqEqToken, js.EqEqToken:
			if u, ok := e.X.(*js.UnaryExpr); ok && u.Op == js.TypeofToken && stringLit(e.Y) != "undefined" {
				return a.inputOf(u.X)
			}
		}
		return ""
	case *js.CallExpr:
		if dotPath(e.X) == "Array.isArray" && len(e.Args.List) == 1 {
			return a.inputOf(e.Args.List[0].Value)
		}
		return ""
	case *js.DotExpr, *js.Var, *js.IndexExpr:
		return a.inputOf(e)
	}
	return ""
}

// absenceTest returns the input a condition tests to be absent: !x.a,
// x.a == null, x.a === undefined.
func (a *analysis) absenceTest(e js.IExpr) string {
	switch e := e.(type) {
	case *js.GroupExpr:
		return a.absenceTest(e.X)
	case *js.UnaryExpr:
		if e.Op == js.NotToken {
			return a.inputOf(e.X)
		}
	case *js.BinaryExpr:
		if (e.Op == js.EqToken || e.Op == js.EqEqToken || e.Op == js.EqEqEqToken) && nullish(e.Y) {
			return a.inputOf(e.X)
		}
	}
	return ""
}

func nullish(e js.IExpr) bool {
	if l, ok := literal(e); ok {
		return l.TokenType == js.NullToken
	}
	v, ok := e.(*js.Var)
	return ok && string(v.Data) == "undefined"
}
