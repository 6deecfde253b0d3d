package jsfacts

import (
	"path"
	"strings"

	"github.com/tdewolff/parse/v2/js"
)

// moduleExports is what another module of the pack exports.
type moduleExports struct {
	exprs       map[string]js.IExpr
	defaultExpr js.IExpr
}

// module reads the top level: imports, functions (hoisted), consts,
// exports. dir is the module's folder in the pack.
func (a *analysis) module(ast *js.AST, dir string) {
	a.exportNames, a.exportExprs = map[string]bool{}, map[string]js.IExpr{}
	for _, s := range ast.List {
		switch s := s.(type) {
		case *js.ImportStmt:
			a.imports(s, &ast.Scope, dir)
		case *js.ExportStmt:
			if s.Module != nil { // export ... from './y' loads y too (its names are not followed)
				a.relativeImport(s.Module, dir)
			}
		}
	}
	for _, s := range ast.List {
		switch s := s.(type) {
		case *js.FuncDecl:
			a.declareFunc(s)
		case *js.ExportStmt:
			if d, ok := s.Decl.(*js.FuncDecl); ok {
				a.declareFunc(d)
			}
		}
	}
	for _, s := range ast.List {
		if !a.step() {
			return
		}
		switch s := s.(type) {
		case *js.VarDecl:
			a.moduleVars(s)
		case *js.ExportStmt:
			a.export(s)
		case *js.ExprStmt:
			a.commonJS(s.Value)
			a.eval(s.Value)
		}
	}
}

// imports binds the names an import of a module of the pack (a relative
// path inside the pack) brings in to what that module exports.
func (a *analysis) imports(imp *js.ImportStmt, scope *js.Scope, dir string) {
	file, ok := a.relativeImport(imp.Module, dir)
	if a.read == nil || !ok {
		return
	}
	mod := a.load(file)
	if mod == nil {
		return
	}
	if imp.Default != nil {
		a.bindImport(scope, imp.Default, mod.defaultExpr)
	}
	for _, al := range imp.List {
		if string(al.Name) == "*" || al.Binding == nil {
			continue // a namespace import: its members are not followed
		}
		imported := al.Binding
		if al.Name != nil {
			imported = al.Name
		}
		a.bindImport(scope, al.Binding, mod.exprs[string(imported)])
	}
}

// relativeImport records an import of module (a quoted specifier) by a
// module in folder dir when it is relative, and returns the pack path it
// names; false for a package, a built-in or a path out of the pack.
func (a *analysis) relativeImport(module []byte, dir string) (string, bool) {
	spec := unquote(module)
	if !strings.HasPrefix(spec, "./") && !strings.HasPrefix(spec, "../") {
		return "", false
	}
	file, ok := packModule(dir, spec)
	a.relImports = append(a.relImports, Import{Spec: spec, File: file, At: a.lineOf(module)})
	return file, ok
}

// packModule is the pack path an import specifier in folder dir names,
// and false for a package or a built-in (not followed) or a path out of
// the pack.
func packModule(dir, spec string) (string, bool) {
	if !strings.HasPrefix(spec, "./") && !strings.HasPrefix(spec, "../") {
		return "", false
	}
	file := path.Join(dir, spec)
	if file == ".." || strings.HasPrefix(file, "../") {
		return "", false
	}
	return file, true
}

// bindImport binds the imported name local to what the module exports as
// e: a function of the pack, or what a const was initialised with.
func (a *analysis) bindImport(scope *js.Scope, local []byte, e js.IExpr) {
	v := moduleVar(scope, local)
	if v == nil || e == nil {
		return
	}
	if f := a.implFunc(e, 0); f != nil {
		a.env[v] = val{k: vFunc, f: f}
	} else if obj := a.resolve(e); obj != nil {
		a.objs[v] = obj
	}
}

// moduleVar finds the variable an imported name is used through: the
// parser declares no variable for an import, so its uses share the
// module scope's undeclared one.
func moduleVar(scope *js.Scope, name []byte) *js.Var {
	for _, v := range scope.Undeclared {
		if string(v.Data) == string(name) {
			return v
		}
	}
	return nil
}

// load reads, parses and runs another module of the pack once, and returns
// its exports (nil when it cannot be read, parsed, or is being read).
func (a *analysis) load(file string) *moduleExports {
	if mod, seen := a.modules[file]; seen {
		return mod
	}
	if len(a.modules) > maxModules {
		return nil
	}
	a.modules[file] = nil
	ast, text := parseModule(a.read(file))
	if ast == nil {
		return nil
	}
	a.sources = append(a.sources, newSource(file, text))
	names, exprs, def, cjs := a.exportNames, a.exportExprs, a.defaultExpr, a.cjsDefault
	a.defaultExpr, a.cjsDefault = nil, false
	a.module(ast, path.Dir(file))
	mod := &moduleExports{exprs: a.exportExprs, defaultExpr: a.defaultExpr}
	a.exportNames, a.exportExprs, a.defaultExpr, a.cjsDefault = names, exprs, def, cjs
	a.modules[file] = mod
	return mod
}

func (a *analysis) declareFunc(d *js.FuncDecl) {
	if d.Name != nil {
		a.env[d.Name] = val{k: vFunc, f: &fn{params: &d.Params, body: &d.Body, at: d.Name.Data}}
	}
}

func (a *analysis) moduleVars(d *js.VarDecl) {
	for _, e := range d.List {
		if v, ok := e.Binding.(*js.Var); ok && e.Default != nil {
			a.objs[v] = e.Default
		}
		a.bind(e.Binding, a.eval(e.Default))
	}
}

func (a *analysis) export(s *js.ExportStmt) {
	if s.Module != nil {
		for _, al := range s.List { // export { x } from './y': names only
			a.exportNames[string(al.Binding)] = true
		}
		return
	}
	switch d := s.Decl.(type) {
	case nil:
		a.exportList(s.List)
	case *js.VarDecl:
		a.moduleVars(d)
		for _, e := range d.List {
			if v, ok := e.Binding.(*js.Var); ok {
				a.exportNames[string(v.Data)] = true
				a.exportExprs[string(v.Data)] = v
			}
		}
	case *js.FuncDecl:
		if s.Default {
			a.defaultExpr = d
		} else if d.Name != nil {
			a.exportNames[string(d.Name.Data)] = true
			a.exportExprs[string(d.Name.Data)] = d.Name
		}
	case *js.ClassDecl:
		if s.Default {
			a.defaultExpr = d
		} else if d.Name != nil {
			a.exportNames[string(d.Name.Data)] = true
		}
	default:
		if s.Default {
			a.defaultExpr = d
			a.eval(d)
		}
	}
}

// exportList reads export { a, b as c, d as default }.
func (a *analysis) exportList(list []js.Alias) {
	for _, al := range list {
		name, local := string(al.Binding), localName(al)
		if name == "default" {
			a.defaultExpr = &js.Var{Data: local}
			if v := a.lookup(local); v != nil {
				a.defaultExpr = v
			}
			continue
		}
		a.exportNames[name] = true
		if v := a.lookup(local); v != nil {
			a.exportExprs[name] = v
		}
	}
}

// localName is the module's own name of an export list item: a in
// export { a as nodes } (the parser keeps the exported name in Binding).
func localName(al js.Alias) []byte {
	if al.Name != nil {
		return al.Name
	}
	return al.Binding
}

// lookup finds the module-level variable a name in an export list refers
// to (the list holds names, not variables).
func (a *analysis) lookup(name []byte) *js.Var {
	for v := range a.env {
		if string(v.Data) == string(name) {
			return v
		}
	}
	for v := range a.objs {
		if string(v.Data) == string(name) {
			return v
		}
	}
	return nil
}

// commonJS reads module.exports = X, module.exports.name = X and
// exports.name = X.
func (a *analysis) commonJS(e js.IExpr) {
	b, ok := e.(*js.BinaryExpr)
	if !ok || b.Op != js.EqToken {
		return
	}
	path := dotPath(b.X)
	switch {
	case path == "module.exports":
		a.cjsDefault = true
		a.defaultExpr = b.Y
		if o, ok := a.resolve(b.Y).(*js.ObjectExpr); ok {
			for _, p := range o.List {
				if name := propName(p); name != "" {
					a.exportNames[name] = true
					a.exportExprs[name] = propValue(p)
				}
			}
		}
	case strings.HasPrefix(path, "module.exports.") && strings.Count(path, ".") == 2,
		strings.HasPrefix(path, "exports.") && strings.Count(path, ".") == 1:
		name := path[strings.LastIndexByte(path, '.')+1:]
		a.exportNames[name] = true
		a.exportExprs[name] = b.Y
	}
}

// resolve follows a module-level const to what it was initialised with.
func (a *analysis) resolve(e js.IExpr) js.IExpr {
	for range 8 {
		v, ok := e.(*js.Var)
		if !ok {
			return e
		}
		init, ok := a.objs[origin(v)]
		if !ok {
			return e
		}
		e = init
	}
	return e
}

// origin follows a variable use to its declaration.
func origin(v *js.Var) *js.Var {
	for i := 0; v.Link != nil && i < 16; i++ {
		v = v.Link
	}
	return v
}
