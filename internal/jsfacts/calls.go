package jsfacts

import (
	"github.com/tdewolff/parse/v2/js"
)

// call analyses a function of the pack with its arguments bound, and
// returns the function it returns, if any (a factory).
func (a *analysis) call(f *fn, args []val) val {
	if a.active[f] || a.calls >= maxCalls {
		if a.node != nil {
			for _, v := range args {
				a.escape(v) // what it does there is not followed
			}
		}
		return val{}
	}
	a.active[f] = true
	a.calls++
	defer func() { a.active[f] = false; a.calls-- }()
	for i, p := range f.params.List {
		var v val
		if i < len(args) {
			v = args[i]
		}
		if v.k == vNone && p.Default != nil {
			v = a.eval(p.Default)
		}
		a.bind(p.Binding, v)
	}
	if f.params.Rest != nil {
		for _, v := range args[min(len(args), len(f.params.List)):] {
			a.escape(v)
		}
	}
	var rets []val
	saved := a.returns
	a.returns = &rets
	a.stmts(f.body.List)
	a.returns = saved
	for _, r := range rets {
		if r.k == vFunc {
			return r
		}
	}
	if len(rets) == 1 {
		return rets[0]
	}
	return val{}
}

// bind gives a binding (a name or a destructuring pattern) the value v.
func (a *analysis) bind(b js.IBinding, v val) {
	switch b := b.(type) {
	case *js.Var:
		a.env[origin(b)] = v
	case *js.BindingObject:
		a.bindObject(b, v)
	case *js.BindingArray:
		for _, el := range b.List {
			if el.Default != nil {
				a.eval(el.Default)
			}
			a.bind(el.Binding, val{})
		}
		if b.Rest != nil {
			a.bind(b.Rest, val{})
		}
	}
}

// bindObject destructures v into { key, key: name, key = default, ...rest }.
func (a *analysis) bindObject(b *js.BindingObject, v val) {
	for _, item := range b.List {
		key, keyData := a.bindingKey(item, v)
		sub := a.member(v, key, keyData)
		if item.Value.Default != nil {
			sub = a.withDefault(item, v, key, keyData, sub)
		}
		a.bind(item.Value.Binding, sub)
	}
	if b.Rest != nil {
		if v.k == vInputs {
			a.dynamic()
		}
		a.env[origin(b.Rest)] = val{}
	}
}

// bindingKey is the member a destructuring item reads and its name in the
// source ("" for a computed key, which reads the inputs dynamically).
func (a *analysis) bindingKey(item js.BindingObjectItem, v val) (string, []byte) {
	if item.Key == nil {
		if nv, ok := item.Value.Binding.(*js.Var); ok {
			return string(nv.Data), nv.Data
		}
		return "", nil
	}
	if !item.Key.IsComputed() {
		return unquote(item.Key.Literal.Data), item.Key.Literal.Data
	}
	a.eval(item.Key.Computed)
	if v.k == vInputs {
		a.dynamic()
	}
	return "", nil
}

// withDefault is what { key = def } binds: an input with def in its place
// when absent, or def where the member is unknown.
func (a *analysis) withDefault(item js.BindingObjectItem, v val, key string, keyData []byte, sub val) val {
	def := a.eval(item.Value.Default)
	if v.k == vInputs && key != "" {
		at := keyData
		if nv, ok := item.Value.Binding.(*js.Var); ok && a.lineOf(at).Line == 0 {
			at = nv.Data // { tone = 'x' }: the key is the parser's, the name the source's
		}
		a.fallback(key, item.Value.Default, def, at)
		return val{k: vDefaulted, name: key}
	}
	if sub.k == vNone {
		return def
	}
	return sub
}

// callExpr is f(args): a function of the pack is followed, a method of a
// ctx member is a host call, and anything else is code the analysis does
// not follow.
func (a *analysis) callExpr(e *js.CallExpr) val {
	callee := a.eval(e.X)
	args := make([]val, len(e.Args.List))
	for i, arg := range e.Args.List {
		args[i] = a.eval(arg.Value)
		if arg.Rest && args[i].k == vInputs {
			a.dynamic()
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
		if args[0].fromInput() {
			return args[0]
		}
	}
	return a.unfollowed(e, args)
}

// unfollowed is a call into code the analysis does not follow: what it is
// handed, it may read; a function it is handed (a callback) runs. A method
// of an input's value (x.trim()) is computed from it.
func (a *analysis) unfollowed(e *js.CallExpr, args []val) val {
	for _, v := range args {
		if v.k == vFunc {
			a.call(v.f, nil)
			continue
		}
		a.escape(v)
	}
	if d, ok := e.X.(*js.DotExpr); ok {
		if base := a.eval(d.X); base.fromInput() {
			return val{k: vDerived, name: base.name}
		}
	}
	return val{}
}

// wrappers pass an input's value through: String(x), x.trim() and the
// like keep it the input (or its stand-in) for the checks after them.
var wrappers = map[string]bool{"String": true, "Number": true, "Boolean": true}
