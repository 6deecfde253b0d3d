package jsfacts

import (
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
		a.escape(v)
	case *js.ThrowStmt:
		a.eval(s.Value)
	case *js.BlockStmt:
		a.stmts(s.List)
	case *js.TryStmt:
		a.tryStmt(s)
	case *js.ForStmt, *js.ForInStmt, *js.ForOfStmt, *js.WhileStmt, *js.DoWhileStmt:
		a.loop(s)
	case *js.SwitchStmt:
		a.eval(s.Init)
		for _, c := range s.List {
			a.eval(c.Cond)
			a.stmts(c.List)
		}
	case *js.LabelledStmt:
		a.stmt(s.Value, rest)
	case *js.WithStmt:
		a.escape(a.eval(s.Cond))
		a.stmt(s.Body, nil)
	}
}

func (a *analysis) tryStmt(s *js.TryStmt) {
	a.block(s.Body)
	if s.Binding != nil {
		a.bind(s.Binding, val{})
	}
	a.block(s.Catch)
	a.block(s.Finally)
}

// loop analyses a loop's head and body once each, in the order they run.
func (a *analysis) loop(s js.IStmt) {
	switch s := s.(type) {
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
		a.dynamic()
	}
	if d, ok := init.(*js.VarDecl); ok {
		for _, e := range d.List {
			a.bind(e.Binding, val{})
		}
	}
}

func (a *analysis) varDecl(d *js.VarDecl) {
	for _, e := range d.List {
		a.bind(e.Binding, a.eval(e.Default))
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
	if mentions := a.mentions(s.Cond); len(mentions) > 0 && a.node != nil {
		a.checks(s, rest, mentions)
	}
	a.stmt(s.Body, nil)
	if s.Else != nil {
		a.stmt(s.Else, nil)
	}
}

// checks records what an if statement whose condition mentions inputs
// says about their absence (see ifStmt).
func (a *analysis) checks(s *js.IfStmt, rest []js.IStmt, mentions map[string]Pos) {
	exits, exitAt := exitsEarly(s.Body)
	switch {
	case exits && s.Else == nil && a.presenceTest(s.Cond) != "" && !failing(exitAt):
		name := a.presenceTest(s.Cond)
		a.afterPresence(name, rest, mentions[name])
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

// afterPresence reads what follows a check that returns early when input
// name is there: the code after it fails, builds a value of its own (a
// fallback), or returns only empty values.
func (a *analysis) afterPresence(name string, rest []js.IStmt, at Pos) {
	next := firstExit(rest)
	switch {
	case next == nil:
	case failing(next):
		a.failure(name, at)
	case builds(rest):
		a.markFallback(name, "", at)
	default:
		a.hollowed(name, at) // what follows returns only empty values
	}
}
