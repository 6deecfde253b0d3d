package jsfacts

import (
	"github.com/tdewolff/parse/v2/js"
)

// fallback records that input name gets def in its place when absent.
func (a *analysis) fallback(name string, def js.IExpr, dv val, at []byte) {
	if a.node == nil {
		return
	}
	f := a.node.inputs[name]
	if f == nil {
		f = &Fact{Input: name, Kind: Passed}
		a.node.inputs[name] = f
	}
	kind := Fallback
	if hollow(def, dv) {
		kind = Hollow
	}
	if f.Kind == Failure || f.Kind == Fallback {
		return // a failure anywhere decides; the first usable fallback is named
	}
	if f.Kind == Hollow && kind == Hollow {
		return
	}
	f.Kind, f.Value, f.At = kind, render(def), a.lineOf(at)
}

// failure records that the node fails when input name is absent.
func (a *analysis) failure(name string, at Pos) {
	if a.node == nil {
		return
	}
	f := a.node.inputs[name]
	if f == nil {
		f = &Fact{Input: name}
		a.node.inputs[name] = f
	}
	if f.Kind != Failure {
		f.Kind, f.Value, f.At = Failure, "", at
	}
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

// hollow says whether a fallback value is empty: ”, {}, [], null,
// undefined, false, or a value that is itself an input's stand-in.
func hollow(e js.IExpr, v val) bool {
	switch e := e.(type) {
	case *js.ObjectExpr:
		return len(e.List) == 0
	case *js.ArrayExpr:
		return len(e.List) == 0
	case *js.GroupExpr:
		return hollow(e.X, v)
	case *js.Var:
		if string(e.Data) == "undefined" && e.Decl == js.NoDecl {
			return true
		}
	case *js.TemplateExpr:
		return e.Tag == nil && len(e.List) == 0 && len(e.Tail) <= 2
	}
	if l, ok := literal(e); ok {
		switch l.TokenType {
		case js.StringToken:
			return len(l.Data) <= 2
		case js.NullToken, js.FalseToken:
			return true
		}
		return false
	}
	return v.k == vDefaulted
}
