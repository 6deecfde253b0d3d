package jsfacts

import (
	"maps"
	"path"
	"slices"

	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/js"
)

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
	defer func() {
		if recover() != nil {
			*f = Facts{} // the parser or the analysis met a form it cannot take: claim nothing
		}
	}()
	ast, text := parseModule(src)
	if ast == nil {
		return f
	}
	a := &analysis{sources: []source{newSource(entry, text)}, env: map[*js.Var]val{}, objs: map[*js.Var]js.IExpr{}, active: map[*fn]bool{},
		read: read, modules: map[string]*moduleExports{entry: nil}}
	a.module(ast, path.Dir(entry))
	if a.exhausted {
		return &Facts{}
	}
	f.parsed = true
	f.exports, f.hasDefault = a.exportNames, a.defaultExpr != nil || a.cjsDefault
	f.imports = a.relImports
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

// parseModule parses one module's source within the bounds, and returns
// the text the positions refer to; nil when src is empty, past MaxSource,
// nested too deep or does not parse.
func parseModule(src []byte) (*js.AST, []byte) {
	if len(src) == 0 || len(src) > MaxSource || !shallow(src) {
		return nil, nil
	}
	in := parse.NewInputBytes([]byte(string(src))) // a copy: the parser may write a NUL after it
	ast, err := js.Parse(in, js.Options{})
	if err != nil {
		return nil, nil
	}
	return ast, in.Bytes()[:len(src)]
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

// fromInput says whether v is an input's value, its stand-in, or
// something computed from it.
func (v val) fromInput() bool { return v.k == vInput || v.k == vDefaulted || v.k == vDerived }

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

	read       Reader
	modules    map[string]*moduleExports // by path; nil while being read (an import cycle)
	relImports []Import                  // every relative import met, in reading order

	node      *Node // the node being analysed; nil at module level
	active    map[*fn]bool
	calls     int
	steps     int // this node's
	total     int // the file's
	depth     int
	exhausted bool
	returns   *[]val // what the function being analysed returns
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
