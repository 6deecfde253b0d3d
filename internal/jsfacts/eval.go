package jsfacts

import (
	"slices"
	"strings"

	"github.com/tdewolff/parse/v2/js"
)

// stmts analyses a statement list in order; rest of each statement is what
// follows it, which decides whether a presence check returns early into a
// fallback or into a failure.
func (a *analysis) stmts(list []js.IStmt) {
	for i, s := range list {
		if !a.step() {
			return
		}
		a.stmt(s, list[i+1:])
	}
}

func (a *analysis) stmt(s js.IStmt, rest []js.IStmt) {
	switch s := s.(type) {
	case *js.ExprStmt:
		a.eval(s.Value)
	case *js.VarDecl:
		a.varDecl(s)
	case *js.FuncDecl:
		a.declareFunc(s)
	case *js.IfStmt:
		a.ifStmt(s, rest)
	case *js.ReturnStmt:
		v := a.eval(s.Value)
		if a.returns != nil {
			*a.returns = append(*a.returns, v)
		}
		a.escape(v, Pos{})
	case *js.ThrowStmt:
		a.eval(s.Value)
	case *js.BlockStmt:
		a.stmts(s.List)
	case *js.TryStmt:
		a.block(s.Body)
		if s.Binding != nil {
			a.bind(s.Binding, val{}, nil)
		}
		a.block(s.Catch)
		a.block(s.Finally)
	case *js.ForStmt:
		a.eval(s.Init)
		a.eval(s.Cond)
		a.eval(s.Post)
		a.block(s.Body)
	case *js.ForInStmt:
		a.loopHead(s.Init, s.Value)
		a.block(s.Body)
	case *js.ForOfStmt:
		a.loopHead(s.Init, s.Value)
		a.block(s.Body)
	case *js.WhileStmt:
		a.eval(s.Cond)
		a.stmt(s.Body, nil)
	case *js.DoWhileStmt:
		a.stmt(s.Body, nil)
		a.eval(s.Cond)
	case *js.SwitchStmt:
		a.eval(s.Init)
		for _, c := range s.List {
			a.eval(c.Cond)
			a.stmts(c.List)
		}
	case *js.LabelledStmt:
		a.stmt(s.Value, rest)
	case *js.WithStmt:
		a.escape(a.eval(s.Cond), Pos{})
		a.stmt(s.Body, nil)
	}
}

func (a *analysis) block(b *js.BlockStmt) {
	if b != nil {
		a.stmts(b.List)
	}
}

// loopHead reads for (x of v) / for (x in v): iterating the inputs object
// reads it dynamically.
func (a *analysis) loopHead(init, value js.IExpr) {
	v := a.eval(value)
	if v.k == vInputs {
		a.dynamic(nil)
	}
	if d, ok := init.(*js.VarDecl); ok {
		for _, e := range d.List {
			a.bind(e.Binding, val{}, nil)
		}
	}
}

func (a *analysis) varDecl(d *js.VarDecl) {
	for _, e := range d.List {
		a.bind(e.Binding, a.eval(e.Default), nil)
	}
}

// ifStmt decides what an if does for the inputs its condition tests:
//   - a body that returns or throws, under a condition mentioning an
//     input (if (!x.a || !x.b) return error; if (typeof x.a !== 'string')
//     throw ...; if (topic.length === 0) return ...), is a failure for each
//     of them, unless
//   - the condition tests that input is there (Array.isArray(x.a), x.a,
//     x.a != null) and the body returns it, and the code after it returns
//     something else without failing: that is a fallback.
//   - a condition testing the input is absent (!x.a, x.a == null) around a
//     body that assigns without returning is a fallback too.
func (a *analysis) ifStmt(s *js.IfStmt, rest []js.IStmt) {
	mentions := a.mentions(s.Cond)
	if len(mentions) > 0 && a.node != nil {
		exits, exitAt := exitsEarly(s.Body)
		switch {
		case exits && s.Else == nil && a.presenceTest(s.Cond) != "" && !failing(exitAt):
			name := a.presenceTest(s.Cond)
			next := firstExit(rest)
			switch {
			case next == nil:
			case failing(next):
				a.failure(name, mentions[name])
			case builds(rest):
				a.markFallback(name, "", mentions[name])
			default:
				a.hollowed(name, mentions[name]) // what follows returns only empty values
			}
		case exits:
			for name, at := range mentions {
				a.failure(name, at)
			}
		case s.Else == nil && a.absenceTest(s.Cond) != "":
			name := a.absenceTest(s.Cond)
			switch assigned(s.Body) {
			case assignsValue:
				a.markFallback(name, "", mentions[name])
			case assignsEmpty:
				a.hollowed(name, mentions[name])
			}
		}
	}
	a.stmt(s.Body, nil)
	if s.Else != nil {
		a.stmt(s.Else, nil)
	}
}

// markFallback records a fallback the code builds (not one expression).
func (a *analysis) markFallback(name, what string, at Pos) {
	f := a.node.inputs[name]
	if f == nil {
		f = &Fact{Input: name}
		a.node.inputs[name] = f
	}
	if f.Kind == Passed || f.Kind == Hollow {
		f.Kind, f.Value, f.At = Fallback, what, at
	}
}

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
	if v.k == vInput || v.k == vDefaulted || v.k == vDerived {
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

// exprLine is the line of an expression: of its last member name or
// literal, the part nearest what it reads.
func (a *analysis) exprLine(e js.IExpr) Pos {
	for range 64 {
		switch x := e.(type) {
		case *js.DotExpr:
			if l, ok := literal(x.Y); ok {
				return a.lineOf(l.Data)
			}
			e = x.X
		case *js.IndexExpr:
			if l, ok := literal(x.Y); ok {
				return a.lineOf(l.Data)
			}
			e = x.X
		case *js.CallExpr:
			e = x.X
		case *js.GroupExpr:
			e = x.X
		case *js.UnaryExpr:
			e = x.X
		case *js.BinaryExpr:
			e = x.X
		case *js.Var:
			return a.lineOf(x.Data) // its declaration: the best the AST keeps
		default:
			if l, ok := literal(e); ok {
				return a.lineOf(l.Data)
			}
			return Pos{}
		}
	}
	return Pos{}
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

// exitsEarly reports whether a statement returns or throws (directly, or
// as a statement of its block), and the statement that does.
func exitsEarly(s js.IStmt) (bool, js.IStmt) {
	switch s := s.(type) {
	case *js.ReturnStmt, *js.ThrowStmt:
		return true, s
	case *js.BlockStmt:
		if x := firstExit(s.List); x != nil {
			return true, x
		}
	}
	return false, nil
}

// firstExit returns the first return or throw at the top of a list.
func firstExit(list []js.IStmt) js.IStmt {
	for _, s := range list {
		switch s := s.(type) {
		case *js.ReturnStmt, *js.ThrowStmt:
			return s
		case *js.BlockStmt:
			if x := firstExit(s.List); x != nil {
				return x
			}
		}
	}
	return nil
}

// failing reports whether an exit fails: a throw, a bare return, or a
// result that says it is an error ({ status: 'error' }, { error: ... },
// { ok: false }).
func failing(s js.IStmt) bool {
	switch s := s.(type) {
	case *js.ThrowStmt:
		return true
	case *js.ReturnStmt:
		return s.Value == nil || errorValue(s.Value)
	}
	return false
}

func errorValue(e js.IExpr) bool {
	switch e := e.(type) {
	case *js.GroupExpr:
		return errorValue(e.X)
	case *js.ObjectExpr:
		for _, p := range e.List {
			switch propName(p) {
			case "status":
				switch stringLit(p.Value) {
				case "error", "failed", "failure", "fail":
					return true
				}
			case "error", "errors":
				return true
			case "ok", "success":
				if l, ok := literal(p.Value); ok && l.TokenType == js.FalseToken {
					return true
				}
			}
		}
	}
	return false
}

// assignment is what a statement assigns: nothing, only empty values, or
// a value.
type assignment int

const (
	assignsNothing assignment = iota
	assignsEmpty
	assignsValue
)

// assigned says what a statement assigns (x = ..., x ??= ...), directly
// or in its block.
func assigned(s js.IStmt) assignment {
	switch s := s.(type) {
	case *js.ExprStmt:
		b, ok := s.Value.(*js.BinaryExpr)
		if !ok || b.Op != js.EqToken && b.Op != js.NullishEqToken && b.Op != js.OrEqToken {
			return assignsNothing
		}
		if hollow(b.Y, val{}) {
			return assignsEmpty
		}
		return assignsValue
	case *js.BlockStmt:
		out := assignsNothing
		for _, x := range s.List {
			out = max(out, assigned(x))
		}
		return out
	}
	return assignsNothing
}

// builds reports whether the statements return, somewhere (not in a
// nested function), a value that is neither a failure nor empty: the
// code after a presence check builds a result of its own.
func builds(list []js.IStmt) bool {
	for _, s := range list {
		switch s := s.(type) {
		case *js.ReturnStmt:
			if s.Value != nil && !errorValue(s.Value) && !hollow(s.Value, val{}) {
				return true
			}
		case *js.BlockStmt:
			if builds(s.List) {
				return true
			}
		case *js.IfStmt:
			if builds([]js.IStmt{s.Body}) || s.Else != nil && builds([]js.IStmt{s.Else}) {
				return true
			}
		case *js.ForStmt:
			if builds(s.Body.List) {
				return true
			}
		case *js.ForOfStmt:
			if builds(s.Body.List) {
				return true
			}
		case *js.ForInStmt:
			if builds(s.Body.List) {
				return true
			}
		case *js.WhileStmt:
			if builds([]js.IStmt{s.Body}) {
				return true
			}
		case *js.TryStmt:
			if builds(s.Body.List) {
				return true
			}
		}
	}
	return false
}

// hollowed records that the node puts only an empty value in an input's
// place (unless a fact already decides more).
func (a *analysis) hollowed(name string, at Pos) {
	f := a.node.inputs[name]
	if f == nil {
		f = &Fact{Input: name}
		a.node.inputs[name] = f
	}
	if f.Kind == Passed {
		f.Kind, f.Value, f.At = Hollow, "", at
	}
}

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
	switch e := e.(type) {
	case *js.Var:
		if v, ok := a.env[origin(e)]; ok {
			return v
		}
		return val{}
	case *js.GroupExpr:
		return a.eval(e.X)
	case *js.DotExpr:
		return a.member(a.eval(e.X), litName(e.Y), litData(e.Y))
	case *js.IndexExpr:
		base := a.eval(e.X)
		if name := stringLit(e.Y); name != "" {
			l, _ := literal(e.Y)
			return a.member(base, name, l.Data)
		}
		a.eval(e.Y)
		if base.k == vInputs {
			a.dynamic(nil)
		}
		if base.k == vInput || base.k == vDefaulted || base.k == vDerived {
			return val{k: vDerived, name: base.name}
		}
		return val{}
	case *js.CallExpr:
		return a.callExpr(e)
	case *js.NewExpr:
		a.eval(e.X)
		if e.Args != nil {
			for _, arg := range e.Args.List {
				a.escape(a.eval(arg.Value), Pos{})
			}
		}
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
	case *js.ObjectExpr:
		for _, p := range e.List {
			if p.Name != nil && p.Name.IsComputed() {
				a.eval(p.Name.Computed)
			}
			if _, isMethod := p.Value.(*js.MethodDecl); isMethod {
				continue
			}
			a.escape(a.eval(p.Value), Pos{})
			a.eval(p.Init)
		}
		return val{}
	case *js.ArrayExpr:
		for _, el := range e.List {
			a.escape(a.eval(el.Value), Pos{})
		}
		return val{}
	case *js.TemplateExpr:
		a.eval(e.Tag)
		for _, part := range e.List {
			a.escape(a.eval(part.Expr), Pos{})
		}
		return val{}
	case *js.ArrowFunc:
		return val{k: vFunc, f: &fn{params: &e.Params, body: &e.Body}}
	case *js.FuncDecl:
		f := &fn{params: &e.Params, body: &e.Body, at: nameData(e.Name)}
		if e.Name != nil {
			a.env[origin(e.Name)] = val{k: vFunc, f: f}
		}
		return val{k: vFunc, f: f}
	case *js.YieldExpr:
		a.escape(a.eval(e.X), Pos{})
		return val{}
	case *js.VarDecl:
		a.varDecl(e)
		return val{}
	}
	return val{}
}

func litData(e js.IExpr) []byte {
	if l, ok := literal(e); ok {
		return l.Data
	}
	return nil
}

// wrappers pass an input's value through: String(x), x.trim() and the
// like keep it the input (or its stand-in) for the checks after them.
var wrappers = map[string]bool{"String": true, "Number": true, "Boolean": true}

func (a *analysis) callExpr(e *js.CallExpr) val {
	callee := a.eval(e.X)
	args := make([]val, len(e.Args.List))
	for i, arg := range e.Args.List {
		args[i] = a.eval(arg.Value)
		if arg.Rest && args[i].k == vInputs {
			a.dynamic(nil)
		}
	}
	switch callee.k {
	case vFunc:
		return a.call(callee.f, args)
	case vMember:
		a.hostCall(callee)
	case vDerived, vInput, vDefaulted:
		return val{k: vDerived, name: callee.name}
	}
	if v, ok := e.X.(*js.Var); ok && wrappers[string(v.Data)] && v.Decl == js.NoDecl && len(args) == 1 {
		if args[0].k == vInput || args[0].k == vDefaulted || args[0].k == vDerived {
			return args[0]
		}
	}
	// Code the analysis does not follow: what it is handed, it may read;
	// a function it is handed (a callback) runs.
	for i, v := range args {
		if v.k == vFunc {
			a.call(v.f, nil)
			continue
		}
		a.escape(v, a.exprLine(e.Args.List[i].Value))
	}
	if d, ok := e.X.(*js.DotExpr); ok {
		if base := a.eval(d.X); base.k == vInput || base.k == vDefaulted || base.k == vDerived {
			return val{k: vDerived, name: base.name}
		}
	}
	return val{}
}

// hostCall records a method called through a member of ctx that is not its
// data and not a known host surface (which member already recorded):
// ctx.dataIntegration.transform(...) reaches the host whatever the host
// calls that member.
func (a *analysis) hostCall(callee val) {
	path := callee.name
	if a.node == nil {
		return
	}
	first, rest, isMethod := strings.Cut(path, ".")
	if !isMethod || !isContextMember(first) || slices.Contains(hostSurfaces, first) {
		return
	}
	if last := rest[strings.LastIndexByte(rest, '.')+1:]; last == "call" || last == "apply" || last == "bind" {
		if i := strings.LastIndexByte(rest, '.'); i >= 0 {
			rest = rest[:i]
		} else {
			return // ctx.x.call(...): x itself is called
		}
	}
	a.surface(first+"."+rest+"()", callee.at)
}

func calleeName(e js.IExpr) js.IExpr {
	if d, ok := e.(*js.DotExpr); ok {
		return d.Y
	}
	return e
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
		a.escape(v, Pos{})
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

// exprData is the member name or literal an expression ends with.
func (a *analysis) exprData(e js.IExpr) []byte { return litData(calleeName(e)) }
