package jsfacts

import (
	"slices"

	"github.com/tdewolff/parse/v2/js"
)

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
	return slices.ContainsFunc(list, buildsIn)
}

// buildsIn is builds for one statement.
func buildsIn(s js.IStmt) bool {
	switch s := s.(type) {
	case *js.ReturnStmt:
		return s.Value != nil && !errorValue(s.Value) && !hollow(s.Value, val{})
	case *js.BlockStmt:
		return builds(s.List)
	case *js.IfStmt:
		return buildsIn(s.Body) || s.Else != nil && buildsIn(s.Else)
	case *js.ForStmt:
		return builds(s.Body.List)
	case *js.ForOfStmt:
		return builds(s.Body.List)
	case *js.ForInStmt:
		return builds(s.Body.List)
	case *js.WhileStmt:
		return buildsIn(s.Body)
	case *js.TryStmt:
		return builds(s.Body.List)
	}
	return false
}
