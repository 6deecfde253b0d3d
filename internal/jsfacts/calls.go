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
				a.escape(v, Pos{}) // what it does there is not followed
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
		a.bind(p.Binding, v, nil)
	}
	if f.params.Rest != nil {
		for _, v := range args[min(len(args), len(f.params.List)):] {
			a.escape(v, Pos{})
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
func (a *analysis) bind(b js.IBinding, v val, at []byte) {
	switch b := b.(type) {
	case *js.Var:
		a.env[origin(b)] = v
	case *js.BindingObject:
		for _, item := range b.List {
			key := ""
			var keyData []byte
			if item.Key != nil && !item.Key.IsComputed() {
				key, keyData = unquote(item.Key.Literal.Data), item.Key.Literal.Data
			} else if item.Key == nil {
				if nv, ok := item.Value.Binding.(*js.Var); ok {
					key, keyData = string(nv.Data), nv.Data
				}
			} else {
				a.eval(item.Key.Computed)
				if v.k == vInputs {
					a.dynamic(at)
				}
			}
			sub := a.member(v, key, keyData)
			if item.Value.Default != nil {
				def := a.eval(item.Value.Default)
				if v.k == vInputs && key != "" {
					at := keyData
					if nv, ok := item.Value.Binding.(*js.Var); ok && a.lineOf(at).Line == 0 {
						at = nv.Data // { tone = 'x' }: the key is the parser's, the name the source's
					}
					a.fallback(key, item.Value.Default, def, at)
					sub = val{k: vDefaulted, name: key}
				} else if sub.k == vNone {
					sub = def
				}
			}
			a.bind(item.Value.Binding, sub, keyData)
		}
		if b.Rest != nil {
			if v.k == vInputs {
				a.dynamic(b.Rest.Data)
			}
			a.env[origin(b.Rest)] = val{}
		}
	case *js.BindingArray:
		for _, el := range b.List {
			if el.Default != nil {
				a.eval(el.Default)
			}
			a.bind(el.Binding, val{}, at)
		}
		if b.Rest != nil {
			a.bind(b.Rest, val{}, at)
		}
	}
}

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

// wrappers pass an input's value through: String(x), x.trim() and the
// like keep it the input (or its stand-in) for the checks after them.
var wrappers = map[string]bool{"String": true, "Number": true, "Boolean": true}
