package jsfacts

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// node is a one-node executor whose node a.b reads input q with a fallback.
const node = "export const nodes = { 'a.b': async (ctx) => ctx.inputs.q ?? 'd' };\n"

// TestMaxSource: a source past MaxSource yields no facts, the entry or a
// module it imports; one at the bound is read.
func TestMaxSource(t *testing.T) {
	pad := func(n int) string { return "//" + strings.Repeat("x", n-3) + "\n" }
	at := node + pad(MaxSource-len(node))
	if len(at) != MaxSource || !Analyze([]byte(at), "index.mjs", nil).Parsed() {
		t.Errorf("a source of MaxSource bytes (%d) is not read", len(at))
	}
	if Analyze([]byte(at+" "), "index.mjs", nil).Parsed() {
		t.Errorf("a source past MaxSource is read")
	}

	entry := "import { h } from './h.mjs';\nexport const nodes = { 'a.b': async (ctx) => h(ctx) };\n"
	helper := "export function h(ctx) { return ctx.db.get(1); }\n"
	for _, tc := range []struct {
		module string
		want   []string
	}{
		{helper, []string{"db"}},
		{helper + pad(MaxSource-len(helper)+1), nil},
	} {
		read := func(string) []byte { return []byte(tc.module) }
		if got := surfaces(Analyze([]byte(entry), "index.mjs", read).Node("a.b")); !slices.Equal(got, tc.want) {
			t.Errorf("module of %d bytes: surfaces %v, want %v", len(tc.module), got, tc.want)
		}
	}
}

// TestDepthBound: brackets or template literals nested, or operators
// chained, past maxDepth make the source unread (the parser recurses on
// each); at the bound it is read.
func TestDepthBound(t *testing.T) {
	nested := func(n int) string { // brackets alone: no other token to count at
		return node + "const v = " + strings.Repeat("[", n) + strings.Repeat("]", n) + ";\n"
	}
	templates := func(n int) string {
		return node + "const v = " + strings.Repeat("`${", n) + "1" + strings.Repeat("}`", n) + ";\n"
	}
	chained := func(n int) string {
		return node + "let v; v = " + strings.Repeat("!", n) + "1;\n"
	}
	for _, tc := range []struct {
		name string
		src  string
		want bool
	}{
		{"brackets at the bound", nested(maxDepth - 1), true},
		{"brackets past the bound", nested(maxDepth + 1), false},
		{"templates at the bound", templates(maxDepth - 1), true},
		{"templates past the bound", templates(maxDepth + 1), false},
		{"operators at the bound", chained(maxDepth - 2), true},
		{"operators past the bound", chained(maxDepth + 1), false},
	} {
		if got := Analyze([]byte(tc.src), "index.mjs", nil).Parsed(); got != tc.want {
			t.Errorf("%s: parsed %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestStepBudget: a node whose code takes more than maxSteps claims
// nothing, and the next node has a budget of its own.
func TestStepBudget(t *testing.T) {
	src := "export const nodes = {\n 'a.a': async (ctx) => {\n" + strings.Repeat("x;", maxSteps) + "\n return ctx.inputs.q ?? 'd'; },\n 'a.b': async (ctx) => ctx.inputs.q ?? 'd',\n};\n"
	f := Analyze([]byte(src), "index.mjs", nil)
	if !f.Parsed() {
		t.Fatal("not parsed")
	}
	if f.Node("a.a") != nil {
		t.Error("a node past its step budget claims facts")
	}
	if f.Node("a.b") == nil {
		t.Error("the next node has no facts: its budget was spent by another")
	}
}

// TestFileBudget: past maxTotal steps for the file, the remaining nodes
// claim nothing.
func TestFileBudget(t *testing.T) {
	var b strings.Builder
	b.WriteString("function h(ctx) {\n" + strings.Repeat("x;", maxSteps/8) + "\n return ctx.db; }\nexport const nodes = {\n")
	n := 8 * maxTotal / maxSteps // each node takes over maxSteps/8 steps: more than the file affords
	for i := range n {
		fmt.Fprintf(&b, " 'a.%03d': (ctx) => h(ctx),\n", i)
	}
	b.WriteString("};\n")
	f := Analyze([]byte(b.String()), "index.mjs", nil)
	claimed := len(f.TypeIDs())
	if claimed == 0 || claimed >= n {
		t.Errorf("%d of %d nodes claimed, want some but not all", claimed, n)
	}
}

// TestCallDepth: calls into the pack's own functions are followed
// maxCalls deep, no deeper.
func TestCallDepth(t *testing.T) {
	chain := func(n int) string {
		var b strings.Builder
		b.WriteString("function h0(c) { return c.db.get(1); }\n")
		for i := 1; i < n; i++ {
			fmt.Fprintf(&b, "function h%d(c) { return h%d(c); }\n", i, i-1)
		}
		fmt.Fprintf(&b, "export const nodes = { 'a.b': (ctx) => h%d(ctx) };\n", n-1)
		return b.String()
	}
	if got := surfacesOf(chain(maxCalls-1), "a.b"); !slices.Equal(got, []string{"db"}) {
		t.Errorf("%d calls deep: surfaces %v, want [db]", maxCalls-1, got)
	}
	if got := surfacesOf(chain(maxCalls+1), "a.b"); len(got) != 0 {
		t.Errorf("%d calls deep: surfaces %v, want none (not followed)", maxCalls+1, got)
	}
}

// TestModuleBound: an entry's imports are followed through maxModules
// modules of the pack, no further.
func TestModuleBound(t *testing.T) {
	chain := func(n int) Reader {
		return func(name string) []byte {
			var i int
			if _, err := fmt.Sscanf(name, "m%d.mjs", &i); err != nil || i >= n {
				return nil
			}
			if i == n-1 {
				return []byte("export function h(c) { return c.db.get(1); }\n")
			}
			return fmt.Appendf(nil, "import { h as g } from './m%d.mjs';\nexport function h(c) { return g(c); }\n", i+1)
		}
	}
	src := "import { h } from './m0.mjs';\nexport const nodes = { 'a.b': (ctx) => h(ctx) };\n"
	if got := surfaces(Analyze([]byte(src), "index.mjs", chain(3)).Node("a.b")); !slices.Equal(got, []string{"db"}) {
		t.Errorf("3 modules: surfaces %v, want [db]", got)
	}
	if got := surfaces(Analyze([]byte(src), "index.mjs", chain(maxModules+4)).Node("a.b")); len(got) != 0 {
		t.Errorf("%d modules: surfaces %v, want none (not followed)", maxModules+4, got)
	}
}
