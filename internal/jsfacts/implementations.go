package jsfacts

import (
	"slices"
	"strings"

	"github.com/tdewolff/parse/v2/js"
)

// implMethods are the members of a node object that hold its code.
var implMethods = []string{"execute", "run", "handler", "invoke"}

// implementations maps each typeId to the expression implementing it: the
// members of the nodes export (an object keyed by typeId, or an array of
// objects with a typeId member), or of the default export's nodes member,
// or of a default export keyed by typeIds itself.
func (a *analysis) implementations() map[string]js.IExpr {
	out := map[string]js.IExpr{}
	for _, m := range a.nodeMaps() {
		switch m := a.resolve(m).(type) {
		case *js.ObjectExpr:
			for _, p := range m.List {
				if id := propName(p); strings.Contains(id, ".") {
					if _, seen := out[id]; !seen {
						out[id] = propValue(p)
					}
				}
			}
		case *js.ArrayExpr:
			for _, el := range m.List {
				if o, ok := a.resolve(el.Value).(*js.ObjectExpr); ok {
					a.typeIDMember(o, out)
				}
			}
		}
	}
	return out
}

// nodeMaps are the expressions that may hold the nodes: the nodes export,
// and the default export's nodes member or, without one, the default
// export itself.
func (a *analysis) nodeMaps() []js.IExpr {
	var maps []js.IExpr
	if e, ok := a.exportExprs["nodes"]; ok {
		maps = append(maps, e)
	}
	if a.defaultExpr != nil {
		def := a.resolve(a.defaultExpr)
		if o, ok := def.(*js.ObjectExpr); ok {
			found := false
			for _, p := range o.List {
				if propName(p) == "nodes" {
					maps = append(maps, propValue(p))
					found = true
				}
			}
			if !found {
				maps = append(maps, def)
			}
		}
	}
	return maps
}

// typeIDMember adds an array element { typeId: "x", ... } to out as the
// implementation of x.
func (a *analysis) typeIDMember(o *js.ObjectExpr, out map[string]js.IExpr) {
	for _, p := range o.List {
		if propName(p) == "typeId" {
			if id := stringLit(propValue(p)); id != "" {
				out[id] = o
			}
		}
	}
}

// implFunc finds the function an implementation expression stands for: a
// function or arrow, a method, a variable holding one, an object with an
// execute/run/handler/invoke member, or the function a factory call of the
// pack returns.
func (a *analysis) implFunc(e js.IExpr, hops int) *fn {
	if hops > 8 || e == nil {
		return nil
	}
	switch e := e.(type) {
	case *js.FuncDecl:
		return &fn{params: &e.Params, body: &e.Body, at: nameData(e.Name)}
	case *js.ArrowFunc:
		return &fn{params: &e.Params, body: &e.Body}
	case *js.MethodDecl:
		return &fn{params: &e.Params, body: &e.Body, at: e.Name.Literal.Data}
	case *js.Var:
		if v, ok := a.env[origin(e)]; ok && v.k == vFunc {
			return v.f
		}
		if init, ok := a.objs[origin(e)]; ok {
			return a.implFunc(init, hops+1)
		}
	case *js.ObjectExpr:
		for _, p := range e.List {
			if slices.Contains(implMethods, propName(p)) {
				return a.implFunc(propValue(p), hops+1)
			}
		}
	case *js.GroupExpr:
		return a.implFunc(e.X, hops+1)
	case *js.CallExpr:
		if v := a.eval(e); v.k == vFunc {
			return v.f
		}
	}
	return nil
}
