// Package jsfacts says what a pack's JavaScript executor does, from a parsed
// AST: which function implements each typeId, which host surfaces that code
// reaches through ctx, which inputs it reads, and for each input what it
// does when the input is absent (a usable fallback, a hollow one, a failure,
// or nothing: it passes the value on). Each fact names the line that
// decides it. The lint rules and the chain analysis read these facts; none
// of them reads the source text itself.
//
// The parser is github.com/tdewolff/parse/v2/js: pure Go, ES2020+ including
// ES modules (import/export, which goja's parser does not accept, and the
// registry's entries are .mjs), and it resolves every identifier to the
// declaration in scope, so a use of a name is a use of one variable: a
// same-named const in another function, or a member name that happens to
// match a function of the pack (ctx.a2a.sendMessage against the pack's own
// sendMessage), is never mistaken for it. Its AST carries no positions, but
// every name and literal is a slice of the parsed buffer, so a fact's line
// is where that slice lies in its buffer (see lineOf).
//
// The analysis is a small abstract interpretation: values are "ctx", "a
// member of ctx", "the inputs object", "input X" (and what is derived from
// it), "a function of the pack", or unknown. Calls into the pack's own
// functions are followed with their arguments bound; anything else is
// opaque. What it cannot follow it does not claim: inputs handed whole to
// code it cannot follow make the node read inputs "dynamically", and a file
// too large, too deeply nested or not parsable yields no facts at all, in
// bounded time.
package jsfacts

import (
	"slices"
	"strconv"
	"strings"
)

// Kind is what a node does when an input is absent.
type Kind int

const (
	// Passed: the code reads the input and passes it on as it is; nothing
	// it does depends on whether it is there.
	Passed Kind = iota
	// Hollow: the code puts an empty value in its place ('' , {}, [],
	// null, false): it runs on, with nothing.
	Hollow
	// Fallback: the code puts a usable value in its place (Value says
	// which), or builds its result another way.
	Fallback
	// Failure: the code fails (returns an error, throws, returns early)
	// when the input is absent or empty.
	Failure
)

// Fact is what one node's code does with one input.
type Fact struct {
	Input string
	Kind  Kind
	Value string // the fallback's value, as written (Fallback, Hollow); "" when the code builds one
	At    Pos    // the line that decides
}

// Pos is a line of a module of the pack: File is the path the analysis was
// given for it (the entry's, or the import's resolved path); Line is
// 1-based, 0 when unknown.
type Pos struct {
	File string
	Line int
}

// String renders file:line, or file when the line is unknown.
func (p Pos) String() string {
	if p.Line <= 0 {
		return p.File
	}
	return p.File + ":" + strconv.Itoa(p.Line)
}

// Node is what the code implementing one typeId does.
type Node struct {
	At       Pos            // where the implementing function starts
	surfaces map[string]Pos // host surface or "member.method()" -> where first reached
	inputs   map[string]*Fact
	dynamic  bool // it reads inputs in ways that name no key
}

// Surfaces returns the host surfaces the node reaches through ctx, sorted:
// a surface name ("db", "callAI") or a method called through another
// member of ctx ("dataIntegration.transform()").
func (n *Node) Surfaces() []string {
	out := make([]string, 0, len(n.surfaces))
	for s := range n.surfaces {
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

// SurfaceAt returns where the node first reaches surface s.
func (n *Node) SurfaceAt(s string) Pos { return n.surfaces[s] }

// Input returns what the node does with input name, and false when its
// code never reads it by that name.
func (n *Node) Input(name string) (Fact, bool) {
	f, ok := n.inputs[name]
	if !ok {
		return Fact{}, false
	}
	return *f, true
}

// Reads reports whether the node may read input name: it reads it by
// name, or it reads its inputs dynamically.
func (n *Node) Reads(name string) bool {
	_, ok := n.inputs[name]
	return ok || n.dynamic
}

// Facts is one executor's analysis.
type Facts struct {
	parsed     bool
	nodes      map[string]*Node
	exports    map[string]bool
	hasDefault bool
	imports    []Import
}

// Import is a static import (or export ... from) of a relative path, in the
// entry or a module of the pack it leads to: what the module needs beside
// it in the archive to load.
type Import struct {
	Spec string // the specifier as written ("./lib/util.mjs")
	File string // the pack path it names; "" when it climbs out of the pack
	At   Pos    // the import statement's line
}

// Imports returns the relative imports the analysis met, in the order
// their modules were read (the entry first); a package or built-in
// import ("node:fs", "zod") is not among them.
func (f *Facts) Imports() []Import {
	if f == nil {
		return nil
	}
	return slices.Clone(f.imports)
}

// Parsed reports whether the source was analysed (it parsed, within the
// bounds); when it was not, no method claims anything.
func (f *Facts) Parsed() bool { return f != nil && f.parsed }

// Node returns the facts of the code implementing typeID, or nil when the
// analysis found no implementation it could follow.
func (f *Facts) Node(typeID string) *Node {
	if f == nil {
		return nil
	}
	return f.nodes[typeID]
}

// TypeIDs returns the typeIds the executor implements, sorted.
func (f *Facts) TypeIDs() []string {
	if f == nil {
		return nil
	}
	out := make([]string, 0, len(f.nodes))
	for id := range f.nodes {
		out = append(out, id)
	}
	slices.Sort(out)
	return out
}

// Exports reports whether the module exports a binding named name (ES
// module export or CommonJS exports.name / module.exports = { name }).
func (f *Facts) Exports(name string) bool { return f != nil && f.exports[name] }

// HasDefault reports whether the module has a default export (ES module
// export default, or a CommonJS module.exports assignment).
func (f *Facts) HasDefault() bool { return f != nil && f.hasDefault }

// String renders a fact for a message: "falls back to 'x' (line 12)".
func (f Fact) String() string {
	var b strings.Builder
	switch f.Kind {
	case Fallback:
		if f.Value == "" {
			b.WriteString("builds a value of its own")
		} else {
			b.WriteString("falls back to " + f.Value)
		}
	case Hollow:
		b.WriteString("puts an empty " + f.Value + " in its place")
	case Failure:
		b.WriteString("fails without it")
	default:
		b.WriteString("passes it on")
	}
	if f.At.File != "" {
		b.WriteString(" (" + f.At.String() + ")")
	}
	return b.String()
}
