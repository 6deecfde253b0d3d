package jsfacts

import (
	"slices"
	"strings"
	"testing"
)

func analyze(t *testing.T, src string) *Facts {
	t.Helper()
	f := Analyze([]byte(src), "index.mjs", nil)
	if !f.Parsed() {
		t.Fatalf("not parsed: %s", src)
	}
	return f
}

func TestInputFacts(t *testing.T) {
	for _, tc := range []struct {
		name, src, input string
		kind             Kind
		value            string
		line             int
		absent           bool
	}{
		{name: "nullish usable", src: "export const nodes = {\n 'a.b': async (ctx) => {\n  const t = ctx.inputs.topic ?? 'cats';\n  return { status: 'success', outputs: { t } };\n }};", input: "topic", kind: Fallback, value: "'cats'", line: 3},
		{name: "or failure both", src: "export const nodes = { 'a.b': { async execute(ctx) {\n if (!ctx.inputs.pageId || !ctx.inputs.page) return { status: 'error', error: 'x' };\n return {}; } } };", input: "page", kind: Failure, line: 2},
		{name: "or failure first", src: "export const nodes = { 'a.b': { async execute(ctx) {\n if (!ctx.inputs.pageId || !ctx.inputs.page) return { status: 'error', error: 'x' };\n return {}; } } };", input: "pageId", kind: Failure, line: 2},
		{name: "placeholder then failure", src: "export const nodes = { 'a.b': { async execute({ inputs }) {\n const topic = String(inputs.topic ?? '').trim();\n if (topic.length === 0) return { status: 'error', error: 'topic' };\n return {}; } } };", input: "topic", kind: Failure},
		{name: "hollow object", src: "export const nodes = { 'a.b': async (ctx) => { const c = ctx.inputs.campaign ?? {}; await ctx.http.post(c.id); } };", input: "campaign", kind: Hollow, value: "{}"},
		{name: "isArray ternary hollow", src: "export const nodes = { 'a.b': async (ctx) => { const items = Array.isArray(ctx.inputs.items) ? ctx.inputs.items : []; return items; } };", input: "items", kind: Hollow},
		{name: "not isArray then error", src: "export const nodes = { 'a.b': async (ctx) => {\n if (!Array.isArray(ctx.inputs.items)) {\n  throw new Error('items');\n }\n} };", input: "items", kind: Failure, line: 2},
		{name: "typeof then error", src: "export const nodes = { 'a.b': async ({ inputs }) => { if (typeof inputs.x !== 'string') return { status: 'error' }; } };", input: "x", kind: Failure},
		{name: "nested property is no fallback", src: "export const nodes = { 'a.b': async ({ inputs }) => { const v = inputs.brief?.title ?? 'untitled'; return v; } };", input: "brief", kind: Passed},
		{name: "destructuring default", src: "export const nodes = { 'a.b': async ({ inputs: { tone = 'friendly' } }) => tone };", input: "tone", kind: Fallback, value: "'friendly'"},
		{name: "destructuring default from ctx.inputs", src: "export const nodes = { 'a.b': async (ctx) => { const { limit = 10 } = ctx.inputs; return limit; } };", input: "limit", kind: Fallback, value: "10"},
		{name: "other input as fallback", src: "export const nodes = { 'a.b': async (ctx) => ctx.inputs.prompt ?? ctx.inputs.text };", input: "prompt", kind: Fallback, value: "ctx.inputs.text"},
		{name: "other object same name", src: "export const nodes = { 'a.b': async (ctx) => { const r = await ctx.callAI({}); return r.text ?? r.content ?? ctx.inputs.text; } };", input: "content", absent: true},
		{name: "string literal is no read", src: "export const nodes = { 'a.b': async (ctx) => { ctx.log('inputs.topic ?? fallback'); return ctx.inputs.x; } };", input: "topic", absent: true},
		{name: "presence guard then build", src: "function toMessages(input) {\n if (Array.isArray(input.messages) && input.messages.length > 0) {\n  return input.messages;\n }\n return [{ role: 'user', content: input.prompt ?? JSON.stringify(input) }];\n}\nexport const nodes = { 'a.b': { async execute(ctx) { return ctx.callAI({ messages: toMessages(ctx.inputs ?? {}) }); } } };", input: "messages", kind: Fallback, line: 2},
		{name: "presence guard then error", src: "export const nodes = { 'a.b': async ({ inputs }) => {\n if (Array.isArray(inputs.items) && inputs.items.length) return { status: 'success', outputs: inputs.items };\n return { status: 'error', error: 'no items' }; } };", input: "items", kind: Failure},
		{name: "presence guard then only empty", src: "export const nodes = { 'a.b': async ({ inputs }) => {\n if (inputs.items) return { status: 'success', outputs: inputs.items.map((i) => i.id) };\n return []; } };", input: "items", kind: Hollow, line: 2},
		{name: "absent then assign empty", src: "export const nodes = { 'a.b': async ({ inputs }) => { let m = inputs.tags;\n if (!inputs.tags) { m = []; }\n return m; } };", input: "tags", kind: Hollow, line: 2},
		{name: "absent then assign", src: "export const nodes = { 'a.b': async ({ inputs }) => { let m = inputs.mode;\n if (!inputs.mode) { m = 'auto'; }\n return m; } };", input: "mode", kind: Fallback, line: 2},
		{name: "same-named const elsewhere", src: "function other() { const inputs = { x: 1 }; return inputs.x ?? 'y'; }\nexport const nodes = { 'a.b': async (ctx) => { other(); return ctx.inputs.x; } };", input: "x", kind: Passed},
		{name: "cjs exports", src: "exports.nodes = { 'a.b': { run(ctx) { return ctx.inputs.q || 'default'; } } };", input: "q", kind: Fallback},
		{name: "module.exports nodes", src: "const nodes = { 'a.b': { handler: (ctx) => ctx.inputs.q ?? 'd' } };\nmodule.exports = { nodes };", input: "q", kind: Fallback},
		{name: "array of typeId objects", src: "export const nodes = [ { typeId: 'a.b', invoke: async (ctx) => ctx.inputs.q ?? 'd' } ];", input: "q", kind: Fallback},
		{name: "null is hollow", src: "export const nodes = { 'a.b': async (ctx) => ctx.inputs.q ?? null };", input: "q", kind: Hollow},
		{name: "false is hollow", src: "export const nodes = { 'a.b': async (ctx) => ctx.inputs.q || false };", input: "q", kind: Hollow},
		{name: "empty template is hollow", src: "export const nodes = { 'a.b': async (ctx) => ctx.inputs.q ?? `` };", input: "q", kind: Hollow},
		{name: "undefined is hollow", src: "export const nodes = { 'a.b': async (ctx) => ctx.inputs.q ?? undefined };", input: "q", kind: Hollow},
		{name: "another input's stand-in is hollow", src: "export const nodes = { 'a.b': async (ctx) => { const t = ctx.inputs.b ?? 'x'; return ctx.inputs.a ?? t; } };", input: "a", kind: Hollow},
		{name: "a failure decides over a later fallback", src: "export const nodes = { 'a.b': async (ctx) => {\n if (!ctx.inputs.q) throw new Error('q');\n return ctx.inputs.q ?? 'd'; } };", input: "q", kind: Failure, line: 2},
		{name: "the first usable fallback is named", src: "export const nodes = { 'a.b': async (ctx) => {\n const a = ctx.inputs.q ?? 'first';\n const b = ctx.inputs.q ?? 'second';\n return [a, b]; } };", input: "q", kind: Fallback, value: "'first'", line: 2},
		{name: "a usable fallback after a hollow one", src: "export const nodes = { 'a.b': async (ctx) => {\n const a = ctx.inputs.q ?? '';\n const b = ctx.inputs.q ?? 'x';\n return [a, b]; } };", input: "q", kind: Fallback, value: "'x'", line: 3},
		{name: "not-null guard then build", src: "export const nodes = { 'a.b': async ({ inputs }) => {\n if (inputs.messages != null) return inputs.messages;\n return [{ role: 'user', content: inputs.prompt }]; } };", input: "messages", kind: Fallback, line: 2},
		{name: "typeof guard then build", src: "export const nodes = { 'a.b': async ({ inputs }) => {\n if (typeof inputs.messages === 'object') return inputs.messages;\n return [{ role: 'user', content: inputs.prompt }]; } };", input: "messages", kind: Fallback, line: 2},
		{name: "guard on the right of && then build", src: "export const nodes = { 'a.b': async ({ inputs }) => {\n if (inputs.n > 0 && Array.isArray(inputs.messages)) return inputs.messages;\n return [{ role: 'user', content: inputs.prompt }]; } };", input: "messages", kind: Fallback, line: 2},
		{name: "guard that fails when present", src: "export const nodes = { 'a.b': async ({ inputs }) => {\n if (inputs.legacy) return { status: 'error', error: 'legacy' };\n return [{ role: 'user', content: inputs.prompt }]; } };", input: "legacy", kind: Failure, line: 2},
		{name: "== null then assign", src: "export const nodes = { 'a.b': async ({ inputs }) => { let m = inputs.mode;\n if (inputs.mode == null) { m = 'auto'; }\n return m; } };", input: "mode", kind: Fallback, line: 2},
		{name: "=== undefined then assign", src: "export const nodes = { 'a.b': async ({ inputs }) => { let m = inputs.mode;\n if (inputs.mode === undefined) { m = 'auto'; }\n return m; } };", input: "mode", kind: Fallback, line: 2},
		{name: "input in a conditional's test", src: "export const nodes = { 'a.b': async ({ inputs }) => {\n if ((inputs.a ? 1 : 0) === 0) return { status: 'error', error: 'a' };\n return {}; } };", input: "a", kind: Failure, line: 2},
		{name: "ctx.input names the inputs too", src: "export const nodes = { 'a.b': async (ctx) => ctx.input.q ?? 'd' };", input: "q", kind: Fallback, value: "'d'"},
		{name: "default export nodes", src: "async function run(ctx) { return ctx.inputs.q ?? 'd'; }\nexport default { nodes: { 'a.b': run } };", input: "q", kind: Fallback},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := analyze(t, tc.src).Node("a.b")
			if n == nil {
				t.Fatal("no node a.b")
			}
			f, ok := n.Input(tc.input)
			if tc.absent {
				if ok {
					t.Fatalf("input %q: %+v, want no read", tc.input, f)
				}
				return
			}
			if !ok {
				t.Fatalf("input %q not read; inputs %v", tc.input, n.inputs)
			}
			if f.Kind != tc.kind || tc.value != "" && f.Value != tc.value || tc.line != 0 && f.At.Line != tc.line {
				t.Errorf("input %q: %+v, want kind %d value %q line %d", tc.input, f, tc.kind, tc.value, tc.line)
			}
		})
	}
}

func TestSurfaces(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"direct", "export const nodes = { 'a.b': async (ctx) => ctx.db.get('x') };", "db"},
		{"destructured param", "export const nodes = { 'a.b': async ({ http, inputs }) => http.get(inputs.u) };", "http"},
		{"let then assign", "export const nodes = { 'a.b': async (ctx) => { let di; di = ctx.dataIntegration; return di.transform(ctx.inputs); } };", "dataIntegration.transform()"},
		{"method alias", "export const nodes = { 'a.b': async (ctx) => { const t = ctx.dataIntegration.transform; return t(ctx.inputs); } };", "dataIntegration.transform()"},
		{"bracket", "export const nodes = { 'a.b': async (ctx) => ctx['storage'].put(1) };", "storage"},
		{"optional bracket", "export const nodes = { 'a.b': async (ctx) => ctx?.['storage']?.put(1) };", "storage"},
		{"helper gets ctx", "async function save(c, v) { return c.memory.set(v); }\nexport const nodes = { 'a.b': async (ctx) => save(ctx, 1) };", "memory"},
		{"pure", "function sendMessage(ctx) { return ctx.http.post(); }\nexport const nodes = { 'a.b': async (ctx) => ({ out: (ctx.inputs.a ?? 0) + 1, s: 'ctx.db' }) };", ""},
		{"member name is not the pack's function", "function sendMessage(ctx) { return ctx.http.post(); }\nexport const nodes = { 'a.b': async (ctx) => ctx.a2a.sendMessage({}) };", "a2a"},
		{"data members", "export const nodes = { 'a.b': async (ctx) => { ctx.log.info('x'); ctx.config.items.map((i) => i); return ctx.inputs.x; } };", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := analyze(t, tc.src).Node("a.b")
			if n == nil {
				t.Fatal("no node a.b")
			}
			if got := strings.Join(n.Surfaces(), ","); got != tc.want {
				t.Errorf("surfaces %q, want %q", got, tc.want)
			}
		})
	}
}

func TestDynamic(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      bool
	}{
		{"spread", "export const nodes = { 'a.b': async (ctx) => ctx.callAI({ ...ctx.config, ...ctx.inputs }) };", true},
		{"entries", "export const nodes = { 'a.b': async (ctx) => Object.entries(ctx.inputs) };", true},
		{"computed key", "export const nodes = { 'a.b': async ({ inputs }) => { for (const k of ['a', 'b']) { if (inputs[k]) return inputs[k]; } } };", true},
		{"named only", "export const nodes = { 'a.b': async ({ inputs }) => inputs.a + inputs.b };", false},
		{"through helper", "function pick(i) { return i.a; }\nexport const nodes = { 'a.b': async (ctx) => pick(ctx.inputs) };", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := analyze(t, tc.src).Node("a.b")
			if n == nil {
				t.Fatal("no node a.b")
			}
			if got := n.dynamic; got != tc.want {
				t.Errorf("dynamic %v, want %v (inputs %v)", got, tc.want, n.inputs)
			}
		})
	}
}

func TestNoClaims(t *testing.T) {
	for name, src := range map[string]string{
		"stub":    "export const chatCompletion = {};\nexport const nodes = {};",
		"syntax":  "export const nodes = { 'a.b': (ctx) => { ",
		"deep":    "export const nodes = { 'a.b': (ctx) => " + strings.Repeat("(", 5000) + "ctx.db" + strings.Repeat(")", 5000) + " };",
		"chain":   "export const nodes = { 'a.b': (ctx) => " + strings.Repeat("!", 5000) + "ctx.db };",
		"huge":    "export const nodes = {};" + strings.Repeat(" ", MaxSource),
		"factory": "export const nodes = { 'a.b': makeNode('x') };",
	} {
		t.Run(name, func(t *testing.T) {
			if n := Analyze([]byte(src), "index.mjs", nil).Node("a.b"); n != nil {
				t.Errorf("claims a node: %+v", n)
			}
		})
	}
}

// FuzzAnalyze: any source, however broken or hostile, is analysed without
// a panic, in bounded time, and what it claims is well formed: surfaces
// are host surfaces or methods called through a member of ctx, facts name
// a line of the source.
func FuzzAnalyze(f *testing.F) {
	f.Add(`export const nodes = { 'acme.upper': { async execute(ctx) { return ctx.db.get(ctx.inputs.k ?? 1); } } };`, "acme.upper")
	f.Add("function a(c) { return b(c) }\nfunction b(c) { return a(c) }\nexport const nodes = { 'x': { execute: a } };", "x")
	f.Add("const { db } = ctx; `${'{'}` /* ( */ 'x': (", "x")
	f.Add("export const nodes = { 'x': async ({ dataIntegration: di }) => { const { a } = ctx; return di?.t?.(a.b()); } };", "x")
	f.Add("exports.nodes = [{ typeId: 'x', run(ctx) { let d; d = ctx.kv; if (!ctx.inputs.a || !ctx.inputs.b) throw 1; return d.get(ctx.inputs.c || 'z'); } }];", "x")
	f.Add("import { a } from './index.mjs';\nimport b from '../x.mjs';\nexport function a(c) { return c.db; }\nexport default a;\nexport const nodes = { 'x': (ctx) => a(ctx) };", "x")
	f.Add("function mk(k) { return async function (ctx) { const { inputs: { q = 'd' } } = ctx; return ctx[k].go(q); }; }\nexport default { nodes: { 'x': mk('svc') } };", "x")
	f.Fuzz(func(t *testing.T, src, typeID string) {
		// Every relative import reads the same source: cycles and
		// self-imports included.
		facts := Analyze([]byte(src), "index.mjs", func(string) []byte { return []byte(src) })
		lines := strings.Count(src, "\n") + 1
		for _, id := range facts.TypeIDs() {
			n := facts.Node(id)
			for _, s := range n.Surfaces() {
				member, method, call := strings.Cut(strings.TrimSuffix(s, "()"), ".")
				if !slices.Contains(hostSurfaces, s) && !(call && strings.HasSuffix(s, "()") && isContextMember(member) && method != "") {
					t.Fatalf("surface %q is not a host surface", s)
				}
				if l := n.SurfaceAt(s).Line; l < 0 || l > lines {
					t.Fatalf("surface %q on line %d of %d", s, l, lines)
				}
			}
			for name, fact := range n.inputs {
				if fact.At.Line < 0 || fact.At.Line > lines || fact.Input != name {
					t.Fatalf("fact %+v for %q (%d lines)", *fact, name, lines)
				}
			}
		}
		_ = facts.Node(typeID)
	})
}

// TestExports: the named and default exports runtime-entry-exports reads,
// in the forms of the registry's entries and of bundlers.
func TestExports(t *testing.T) {
	for _, tc := range []struct {
		src               string
		named, hasDefault bool
	}{
		{"export const nodes = {};\nexport default {};\n", true, true},
		{"const m = {};\nexport default m;\n", false, true},
		{"const a = {};\nexport { a as nodes };\n", true, false},
		{"const nodes = {};\nexport { nodes as default };\n", false, true},
		{"module.exports = { nodes: {} };\n", true, true},
		{"exports.nodes = {};\n", true, false},
		{"module.exports.nodes = {};\n", true, false},
		{"export const nodeHandlers = {};\n", false, false},
		{"export async function nodes() {}\n", true, false},
		{"export { nodes } from './nodes.mjs';\n", true, false},
		{"// export const nodes = {};\nconst s = 'export const nodes = {}';\n", false, false},
	} {
		f := analyze(t, tc.src)
		if f.Exports("nodes") != tc.named || f.HasDefault() != tc.hasDefault {
			t.Errorf("%q: nodes %v, default %v; want %v, %v", tc.src, f.Exports("nodes"), f.HasDefault(), tc.named, tc.hasDefault)
		}
	}
}

// TestImports: a function imported from another module of the pack by a
// relative path is followed; a package's, or a path out of the pack, is not.
func TestImports(t *testing.T) {
	files := map[string]string{
		"lib/store.mjs": "export async function save(c, v) { return c.storage.put(v); }\nexport default function pick(i) { return i.topic ?? 'news'; }\n",
		"lib/util.mjs":  "import { save as keep } from './store.mjs';\nexport const persist = (c) => keep(c, 1);\n",
		"../other.mjs":  "export function save(c) { return c.db.put(); }\n",
	}
	read := func(p string) []byte {
		if s, ok := files[p]; ok {
			return []byte(s)
		}
		return nil
	}
	src := `import { persist } from './lib/util.mjs';
import pick from './lib/store.mjs';
import { save } from '../other.mjs';
import { helper } from 'some-package';
export const nodes = {
  'a.one': async (ctx) => persist(ctx),
  'a.two': async (ctx) => pick(ctx.inputs),
  'a.three': async (ctx) => save(ctx),
  'a.four': async (ctx) => helper(ctx),
};`
	f := Analyze([]byte(src), "index.mjs", read)
	if got := surfaces(f.Node("a.one")); !slices.Equal(got, []string{"storage"}) {
		t.Errorf("through two modules: surfaces %q, want [storage]", got)
	} else if at := f.Node("a.one").SurfaceAt("storage"); at != (Pos{File: "lib/store.mjs", Line: 1}) {
		t.Errorf("the surface is reached at %v, want lib/store.mjs:1", at)
	}
	if fact, ok := f.Node("a.two").Input("topic"); !ok || fact.Kind != Fallback || fact.Value != "'news'" {
		t.Errorf("a default import's fallback: %+v", fact)
	}
	if got := surfaces(f.Node("a.three")); got != nil {
		t.Errorf("a module out of the pack was followed: %q", got)
	}
	if !f.Node("a.four").dynamic {
		t.Error("ctx handed to a package's function: the node may read any input")
	}
	if n := Analyze([]byte(src), "index.mjs", nil).Node("a.one"); n == nil || surfaces(n) != nil {
		t.Error("without a reader, imports are not followed")
	}
	want := []Import{
		{Spec: "./lib/util.mjs", File: "lib/util.mjs", At: Pos{File: "index.mjs", Line: 1}},
		{Spec: "./store.mjs", File: "lib/store.mjs", At: Pos{File: "lib/util.mjs", Line: 1}},
		{Spec: "./lib/store.mjs", File: "lib/store.mjs", At: Pos{File: "index.mjs", Line: 2}},
		{Spec: "../other.mjs", File: "", At: Pos{File: "index.mjs", Line: 3}},
	}
	if got := f.Imports(); !slices.Equal(got, want) {
		t.Errorf("Imports() = %+v\nwant %+v", got, want)
	}
	reexport := Analyze([]byte("export * from './more.mjs';\nexport { a } from \"./a.mjs\";\n"), "index.mjs", read)
	if got := reexport.Imports(); len(got) != 2 || got[0].File != "more.mjs" || got[1] != (Import{Spec: "./a.mjs", File: "a.mjs", At: Pos{File: "index.mjs", Line: 2}}) {
		t.Errorf("export ... from: Imports() = %+v", got)
	}
}

// TestNodesIndependent: what one node's code assigns to a module variable
// is not another node's fact, whichever is analysed first.
func TestNodesIndependent(t *testing.T) {
	src := `let client;
export const nodes = {
  'a.a': async (ctx) => { client = ctx.db; return 1; },
  'a.b': async (ctx) => client.query(ctx.inputs.q),
  'a.c': async (ctx) => { client = ctx.db; return 2; },
};`
	for range 20 {
		if got := surfaces(Analyze([]byte(src), "index.mjs", nil).Node("a.b")); got != nil {
			t.Fatalf("a.b reaches %q through another node's assignment", got)
		}
	}
}

// TestSurfaceAt: a surface's line is where the node first reaches it.
func TestSurfaceAt(t *testing.T) {
	n := analyze(t, "export const nodes = { 'a.b': async (ctx) => {\n await ctx.db.get(1);\n await ctx.db.put(2);\n} };").Node("a.b")
	if n == nil {
		t.Fatal("no node a.b")
	}
	if at := n.SurfaceAt("db"); at.Line != 2 {
		t.Errorf("SurfaceAt(db) = %v, want line 2", at)
	}
}

// TestHostCallThroughCall: a method of a ctx member called through
// .call/.apply/.bind is that method's call; the member called so is
// none.
func TestHostCallThroughCall(t *testing.T) {
	for src, want := range map[string][]string{
		"export const nodes = { 'a.b': async (ctx) => ctx.dataIntegration.transform.call(null, 1) };":   {"dataIntegration.transform()"},
		"export const nodes = { 'a.b': async (ctx) => ctx.dataIntegration.transform.apply(null, []) };": {"dataIntegration.transform()"},
		"export const nodes = { 'a.b': async (ctx) => ctx.dataIntegration.call(null) };":                nil,
	} {
		if got := surfacesOf(src, "a.b"); !slices.Equal(got, want) {
			t.Errorf("%s: surfaces %v, want %v", src, got, want)
		}
	}
}
