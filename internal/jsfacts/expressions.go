package jsfacts

import (
	"github.com/tdewolff/parse/v2/js"
)

// eval computes the abstract value of an expression, recording on the way
// what the node reads and reaches.
func (a *analysis) eval(e js.IExpr) val {
	if e == nil || !a.step() {
		return val{}
	}
	a.depth++
	defer func() { a.depth-- }()
	if a.depth > 4*maxDepth {
		a.exhausted = true
		return val{}
	}
	return a.expr(e)
}

// expr is eval's step for one expression, within the budget.
func (a *analysis) expr(e js.IExpr) val {
	switch e := e.(type) {
	case *js.Var:
		return a.env[origin(e)]
	case *js.GroupExpr:
		return a.eval(e.X)
	case *js.DotExpr:
		return a.member(a.eval(e.X), litName(e.Y), litData(e.Y))
	case *js.IndexExpr:
		return a.index(e)
	case *js.CallExpr:
		return a.callExpr(e)
	case *js.NewExpr, *js.ObjectExpr, *js.ArrayExpr, *js.TemplateExpr, *js.YieldExpr:
		a.parts(e)
		return val{}
	case *js.BinaryExpr:
		return a.binary(e)
	case *js.UnaryExpr:
		x := a.eval(e.X)
		if e.Op == js.AwaitToken {
			return x
		}
		return val{}
	case *js.CondExpr:
		return a.cond(e)
	case *js.CommaExpr:
		var v val
		for _, x := range e.List {
			v = a.eval(x)
		}
		return v
	case *js.ArrowFunc, *js.FuncDecl:
		return a.function(e)
	case *js.VarDecl:
		a.varDecl(e)
	}
	return val{}
}

// function is the value of an arrow or function expression; a named one
// is also bound to its name.
func (a *analysis) function(e js.IExpr) val {
	switch e := e.(type) {
	case *js.ArrowFunc:
		return val{k: vFunc, f: &fn{params: &e.Params, body: &e.Body}}
	case *js.FuncDecl:
		f := &fn{params: &e.Params, body: &e.Body, at: nameData(e.Name)}
		if e.Name != nil {
			a.env[origin(e.Name)] = val{k: vFunc, f: f}
		}
		return val{k: vFunc, f: f}
	}
	return val{}
}

// index is x[y]: a member when y is a string literal, otherwise a read of
// an unknown member (of the inputs object: a dynamic read).
func (a *analysis) index(e *js.IndexExpr) val {
	base := a.eval(e.X)
	if name := stringLit(e.Y); name != "" {
		l, _ := literal(e.Y)
		return a.member(base, name, l.Data)
	}
	a.eval(e.Y)
	if base.k == vInputs {
		a.dynamic()
	}
	if base.fromInput() {
		return val{k: vDerived, name: base.name}
	}
	return val{}
}

// parts evaluates the parts of a value built from them (new X(...), an
// object, an array, a template, a yield): each is handed on to code the
// analysis does not follow.
func (a *analysis) parts(e js.IExpr) {
	switch e := e.(type) {
	case *js.NewExpr:
		a.eval(e.X)
		if e.Args != nil {
			for _, arg := range e.Args.List {
				a.escape(a.eval(arg.Value))
			}
		}
	case *js.ObjectExpr:
		for _, p := range e.List {
			if p.Name != nil && p.Name.IsComputed() {
				a.eval(p.Name.Computed)
			}
			if _, isMethod := p.Value.(*js.MethodDecl); isMethod {
				continue
			}
			a.escape(a.eval(p.Value))
			a.eval(p.Init)
		}
	case *js.ArrayExpr:
		for _, el := range e.List {
			a.escape(a.eval(el.Value))
		}
	case *js.TemplateExpr:
		a.eval(e.Tag)
		for _, part := range e.List {
			a.escape(a.eval(part.Expr))
		}
	case *js.YieldExpr:
		a.escape(a.eval(e.X))
	}
}

func (a *analysis) binary(e *js.BinaryExpr) val {
	switch e.Op {
	case js.EqToken:
		v := a.eval(e.Y)
		if x, ok := e.X.(*js.Var); ok {
			a.env[origin(x)] = v
			return v
		}
		a.eval(e.X)
		a.escape(v)
		return v
	case js.NullishToken, js.OrToken, js.NullishEqToken, js.OrEqToken:
		l := a.eval(e.X)
		r := a.eval(e.Y)
		switch l.k {
		case vInput:
			a.fallback(l.name, e.Y, r, litData(calleeName(e.X)))
			return val{k: vDefaulted, name: l.name}
		case vInputs, vCtx, vMember, vFunc:
			return l
		}
		if r.k == vInputs {
			return r
		}
		return val{}
	case js.AndToken:
		a.eval(e.X)
		return a.eval(e.Y)
	}
	a.eval(e.X)
	a.eval(e.Y)
	return val{}
}

// cond reads c ? x : y: x.a ? x.a : d and Array.isArray(x.a) ? x.a : d put d
// in x.a's place; either branch being the inputs object makes it that.
func (a *analysis) cond(e *js.CondExpr) val {
	a.eval(e.Cond)
	x, y := a.eval(e.X), a.eval(e.Y)
	if x.k == vInput && a.presenceTest(e.Cond) == x.name {
		a.fallback(x.name, e.Y, y, a.exprData(e.X))
		return val{k: vDefaulted, name: x.name}
	}
	if x.k == vInputs || y.k == vInputs {
		return val{k: vInputs}
	}
	if x.k != vNone {
		return x
	}
	return y
}
