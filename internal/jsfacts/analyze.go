package jsfacts

import (
	"maps"
	"path"
	"slices"
	"sort"
	"strings"
	"unsafe"

	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/js"
)

// Bounds: many times any real executor (the registry's largest entries are
// tens of kilobytes), a fraction of a second of work.
const (
	// MaxSource is the largest source analysed; a larger one yields no facts.
	MaxSource  = 1 << 20
	maxDepth   = 200     // bracket nesting, and operator chains within a statement
	maxSteps   = 1 << 18 // expressions and statements visited, per node
	maxTotal   = 1 << 22 // and for the whole file: past it, no more nodes are claimed
	maxCalls   = 32      // nested calls into the pack's own functions
	maxModules = 16      // modules of the pack an entry's imports lead to
)

// hostSurfaces are the ctx members through which a node reaches the host:
// the reference host's executor context (openwop-app-install,
// backend/typescript/src/executor/executor.ts) and the host.* surfaces of
// spec/v1/host-capabilities.md. ctx.emit, ctx.inputs, ctx.config and the
// interrupt primitives are not among them: they do not make a node's output
// depend on anything but its input.
var hostSurfaces = []string{
	"a2a", "agentRuntime", "aiEnvelope", "brand", "callAI", "callAIWithTools",
	"callImageGenerator", "callSpeechSynthesizer", "callTranscriber", "callVideoGenerator",
	"campaignMessaging", "canvas", "chat", "coordination", "db", "entities", "features",
	"fs", "http", "kanban", "knowledge", "launchStudio", "mcp", "memory", "messaging",
	"queueBus", "secrets", "storage", "variables", "webResearch",
}

// ctxData are the executor context's members that carry the run's own data
// (its input, configuration, trigger and ids) or touch nothing the output
// depends on (logging, cancellation): a method called on them is no call
// into the host.
var ctxData = []string{"inputs", "input", "config", "triggerData", "state", "signal", "log", "logger", "console", "trustBoundary"}

// isContextMember says whether a ctx member is neither the run's data nor
// an id, so a method called through it reaches the host.
func isContextMember(name string) bool {
	return name != "" && !slices.Contains(ctxData, name) && !strings.HasSuffix(name, "Id") && !strings.HasSuffix(name, "ID")
}

// implMethods are the members of a node object that hold its code.
var implMethods = []string{"execute", "run", "handler", "invoke"}

// Reader reads a module of the pack by its slash-separated path from the
// pack's root ("lib/util.mjs"), nil when there is none (or it is out of
// the pack, or too large).
type Reader func(path string) []byte

// Analyze reads one executor's source, the entry at entry (a
// slash-separated path in the pack; "" when unknown). Functions it imports
// from the pack's other modules by a relative path are followed when read
// is not nil; any other import is code the analysis does not follow. It
// never panics and returns facts claiming nothing when src is too large,
// too deeply nested or does not parse.
func Analyze(src []byte, entry string, read Reader) (f *Facts) {
	f = &Facts{}
	if len(src) == 0 || len(src) > MaxSource || !shallow(src) {
		return f
	}
	defer func() {
		if recover() != nil {
			*f = Facts{} // the parser or the analysis met a form it cannot take: claim nothing
		}
	}()
	buf := []byte(string(src)) // the parser may write a NUL after it
	in := parse.NewInputBytes(buf)
	ast, err := js.Parse(in, js.Options{})
	if err != nil {
		return f
	}
	a := &analysis{sources: []source{newSource(entry, in.Bytes()[:len(src)])}, env: map[*js.Var]val{}, objs: map[*js.Var]js.IExpr{}, active: map[*fn]bool{},
		read: read, modules: map[string]*moduleExports{entry: nil}}
	a.module(ast, path.Dir(entry))
	if a.exhausted {
		return &Facts{}
	}
	f.parsed = true
	f.exports, f.hasDefault = a.exportNames, a.defaultExpr != nil || a.cjsDefault
	f.nodes = map[string]*Node{}
	// Each node starts from the module as loaded, in typeId order: what
	// one node's code assigns to a module variable never shows in
	// another's facts, and the facts never depend on map order.
	impls := a.implementations()
	module := maps.Clone(a.env)
	for _, id := range slices.Sorted(maps.Keys(impls)) {
		a.total += a.steps
		a.steps = 0
		if a.total > maxTotal {
			break // the file's budget is spent: the rest claim nothing
		}
		a.env = maps.Clone(module)
		if n := a.analyzeNode(impls[id]); n != nil {
			f.nodes[id] = n
		}
	}
	return f
}

// shallow reports whether src's nesting stays within maxDepth: brackets,
// and the operators the parser descends into one level each (a = b = c,
// a ? b : c ? ..., !!!x, x => y => z), counted per statement. The parser
// recurses on both, so a hostile source could otherwise exhaust the stack.
func shallow(src []byte) bool {
	l := js.NewLexer(parse.NewInputBytes([]byte(string(src))))
	depth, chain := 0, 0
	for {
		tt, data := l.Next()
		switch {
		case tt == js.ErrorToken:
			return true // the end, or a lexing error the parser reports
		case tt == js.TemplateStartToken:
			depth++
		case tt == js.TemplateEndToken:
			depth--
		}
		if !js.IsPunctuator(tt) && !js.IsOperator(tt) {
			if depth > maxDepth {
				return false
			}
			continue
		}
		switch string(data) {
		case "(", "[", "{":
			depth++
			chain = 0
		case ")", "]", "}":
			depth--
			chain = 0
		case ";", ",":
			chain = 0
		default:
			chain++
		}
		if depth > maxDepth || chain > maxDepth {
			return false
		}
	}
}

// kind of an abstract value.
type kind int

const (
	vNone      kind = iota
	vCtx            // the executor context
	vMember         // a member of ctx, path "db" or "dataIntegration.transform"
	vInputs         // the inputs object
	vInput          // input name, as it is
	vDefaulted      // input name, or a fallback in its place
	vDerived        // something computed from input name
	vFunc           // a function of the pack
)

type val struct {
	k    kind
	name string // vMember: path; vInput, vDefaulted, vDerived: the input
	f    *fn
	at   []byte // vMember: its last member's name, for the line
}

// fn is a function of the pack: its parameters and body.
type fn struct {
	params *js.Params
	body   *js.BlockStmt
	at     []byte // a name or literal near its start, for its line
}

type analysis struct {
	sources []source // the entry, then the modules it imports
	env     map[*js.Var]val
	objs    map[*js.Var]js.IExpr // what a module-level const was initialised with

	exportNames map[string]bool
	exportExprs map[string]js.IExpr
	defaultExpr js.IExpr
	cjsDefault  bool

	read    Reader
	modules map[string]*moduleExports // by path; nil while being read (an import cycle)

	node      *Node // the node being analysed; nil at module level
	active    map[*fn]bool
	calls     int
	steps     int // this node's
	total     int // the file's
	depth     int
	exhausted bool
	returns   *[]val // what the function being analysed returns
}

// source is a parsed module: its path, buffer and line ends.
type source struct {
	name  string
	buf   []byte
	lines []int // offsets of '\n'
}

func newSource(name string, buf []byte) source {
	s := source{name: name, buf: buf}
	for i, c := range buf {
		if c == '\n' {
			s.lines = append(s.lines, i)
		}
	}
	return s
}

// lineOf returns where a slice of a parsed buffer lies: the module and its
// 1-based line; the zero Pos when b is in none (a name the parser made
// up). The pointers are only compared, never dereferenced.
func (a *analysis) lineOf(b []byte) Pos {
	if len(b) == 0 {
		return Pos{}
	}
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	for _, s := range a.sources {
		if len(s.buf) == 0 {
			continue
		}
		base := uintptr(unsafe.Pointer(unsafe.SliceData(s.buf)))
		if p >= base && p < base+uintptr(len(s.buf)) {
			return Pos{File: s.name, Line: sort.SearchInts(s.lines, int(p-base)) + 1}
		}
	}
	return Pos{}
}

// step counts one unit of work; past the budget the analysis stops and
// claims nothing.
func (a *analysis) step() bool {
	a.steps++
	if a.steps > maxSteps {
		a.exhausted = true
	}
	return !a.exhausted
}

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
		if imp, ok := s.(*js.ImportStmt); ok {
			a.imports(imp, &ast.Scope, dir)
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
	spec := unquote(imp.Module)
	if a.read == nil || !strings.HasPrefix(spec, "./") && !strings.HasPrefix(spec, "../") {
		return // a package or a built-in: not followed
	}
	file := path.Join(dir, spec)
	if file == ".." || strings.HasPrefix(file, "../") {
		return // out of the pack
	}
	mod := a.load(file)
	if mod == nil {
		return
	}
	bindTo := func(local []byte, e js.IExpr) {
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
	if imp.Default != nil {
		bindTo(imp.Default, mod.defaultExpr)
	}
	for _, al := range imp.List {
		if string(al.Name) == "*" || al.Binding == nil {
			continue // a namespace import: its members are not followed
		}
		imported := al.Binding
		if al.Name != nil {
			imported = al.Name
		}
		bindTo(al.Binding, mod.exprs[string(imported)])
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
	src := a.read(file)
	if len(src) == 0 || len(src) > MaxSource || !shallow(src) {
		return nil
	}
	in := parse.NewInputBytes([]byte(string(src)))
	ast, err := js.Parse(in, js.Options{})
	if err != nil {
		return nil
	}
	a.sources = append(a.sources, newSource(file, in.Bytes()[:len(src)]))
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
		a.bind(e.Binding, a.eval(e.Default), nil)
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
		for _, al := range s.List {
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

// dotPath renders a.b.c for a chain of names (undeclared or not), "" for
// anything else.
func dotPath(e js.IExpr) string {
	switch e := e.(type) {
	case *js.Var:
		return string(e.Data)
	case *js.DotExpr:
		if x := dotPath(e.X); x != "" {
			if n := litName(e.Y); n != "" {
				return x + "." + n
			}
		}
	}
	return ""
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

// implementations maps each typeId to the expression implementing it: the
// members of the nodes export (an object keyed by typeId, or an array of
// objects with a typeId member), or of the default export's nodes member,
// or of a default export keyed by typeIds itself.
func (a *analysis) implementations() map[string]js.IExpr {
	out := map[string]js.IExpr{}
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
	for _, m := range maps {
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
					for _, p := range o.List {
						if propName(p) == "typeId" {
							if id := stringLit(propValue(p)); id != "" {
								out[id] = o
							}
						}
					}
				}
			}
		}
	}
	return out
}

// propName is a property's literal name ("" when computed or spread).
func propName(p js.Property) string {
	if m, ok := p.Value.(*js.MethodDecl); ok && (p.Name == nil || !p.Name.IsSet()) {
		if m.Name.IsComputed() || m.Name.Private != nil {
			return ""
		}
		return unquote(m.Name.Literal.Data)
	}
	if p.Name == nil || p.Name.IsComputed() {
		if p.Name == nil && !p.Spread {
			if v, ok := p.Value.(*js.Var); ok { // shorthand { nodes }
				return string(v.Data)
			}
		}
		return ""
	}
	return unquote(p.Name.Literal.Data)
}

// propValue is a property's value (shorthand { x } gives the variable x).
func propValue(p js.Property) js.IExpr { return p.Value }

func unquote(b []byte) string {
	s := string(b)
	if len(s) >= 2 && (s[0] == '\'' || s[0] == '"' || s[0] == '`') && s[len(s)-1] == s[0] {
		s = s[1 : len(s)-1]
		if strings.ContainsRune(s, '\\') {
			return "" // an escape: not a name the analysis can be sure of
		}
	}
	return s
}

// stringLit returns the value of a string literal, "" for anything else.
func stringLit(e js.IExpr) string {
	if l, ok := literal(e); ok && l.TokenType == js.StringToken {
		return unquote(l.Data)
	}
	if t, ok := e.(*js.TemplateExpr); ok && t.Tag == nil && len(t.List) == 0 {
		return unquote(t.Tail)
	}
	return ""
}

func literal(e js.IExpr) (js.LiteralExpr, bool) {
	switch l := e.(type) {
	case js.LiteralExpr:
		return l, true
	case *js.LiteralExpr:
		return *l, true
	}
	return js.LiteralExpr{}, false
}

// litName is the name of a member (the Y of a.b).
func litName(e js.IExpr) string {
	if l, ok := literal(e); ok {
		return string(l.Data)
	}
	return ""
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

func nameData(v *js.Var) []byte {
	if v == nil {
		return nil
	}
	return v.Data
}

// analyzeNode runs the implementing function with ctx as its first
// parameter and collects what it does; nil when it cannot be followed.
func (a *analysis) analyzeNode(impl js.IExpr) *Node {
	f := a.implFunc(impl, 0)
	if f == nil || a.exhausted {
		return nil
	}
	n := &Node{At: a.lineOf(f.at), surfaces: map[string]Pos{}, inputs: map[string]*Fact{}}
	a.node = n
	defer func() { a.node = nil }()
	a.call(f, []val{{k: vCtx}})
	if a.exhausted {
		a.exhausted = false // the next node has its own budget
		return nil
	}
	return n
}

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

// member is base.name, recording what a node reads through it.
func (a *analysis) member(base val, name string, at []byte) val {
	if name == "" {
		return val{}
	}
	switch base.k {
	case vCtx:
		if name == "inputs" || name == "input" {
			return val{k: vInputs}
		}
		if a.node != nil && slices.Contains(hostSurfaces, name) {
			a.surface(name, at)
		}
		return val{k: vMember, name: name, at: at}
	case vMember:
		return val{k: vMember, name: base.name + "." + name, at: at}
	case vInputs:
		if a.node != nil {
			if _, seen := a.node.inputs[name]; !seen {
				a.node.inputs[name] = &Fact{Input: name, Kind: Passed, At: a.lineOf(at)}
			}
		}
		return val{k: vInput, name: name}
	case vInput, vDefaulted, vDerived:
		return val{k: vDerived, name: base.name}
	}
	return val{}
}

func (a *analysis) surface(s string, at []byte) {
	if _, seen := a.node.surfaces[s]; !seen {
		a.node.surfaces[s] = a.lineOf(at)
	}
}

func (a *analysis) dynamic(at []byte) {
	if a.node != nil && !a.node.dynamic {
		a.node.dynamic, a.node.dynamicAt = true, a.lineOf(at)
	}
}

// escape notes a value handed to code the analysis does not follow: the
// inputs object (or ctx, which holds it) read there in any way.
func (a *analysis) escape(v val, at Pos) {
	if a.node == nil || a.node.dynamic {
		return
	}
	if v.k == vInputs || v.k == vCtx {
		a.node.dynamic, a.node.dynamicAt = true, at
	}
}

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

// render writes an expression back as JavaScript, shortened for a message.
func render(e js.IExpr) string {
	var b strings.Builder
	e.JS(&b)
	s := strings.Join(strings.Fields(b.String()), " ")
	if len(s) > 40 {
		s = s[:37] + "..."
	}
	return s
}
