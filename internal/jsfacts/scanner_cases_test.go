package jsfacts

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// The cases of the scanner this package replaced (internal/lint's
// executor.go), each still holding.

func surfaces(n *Node) []string {
	if n == nil || len(n.surfaces) == 0 {
		return nil
	}
	return n.Surfaces()
}

func surfacesOf(src, typeID string) []string {
	return surfaces(Analyze([]byte(src), "index.mjs", nil).Node(typeID))
}

func TestScannerSurfaceCases(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
	}{
		{"method calls ctx", `export const nodes = {
  'acme.upper': { async execute(ctx) { return { text: String(ctx.inputs.text).toUpperCase() }; } },
  'acme.ask': { async execute(ctx) { const r = await ctx.callAI({ messages: [] }); return r; } },
};`, nil},
		{"ctx under another name", `export const nodes = {
  'acme.upper': { execute: async (c) => { const rows = await c.db.sql.query('select 1'); return { rows }; } },
};`, []string{"db"}},
		{"destructured ctx", `export const nodes = {
  'acme.upper': { async execute(ctx) { const { http, inputs } = ctx; return http.safeFetch(inputs.url); } },
};`, []string{"http"}},
		{"destructured parameter", `export const nodes = {
  'acme.upper': { async execute({ inputs, storage }) { return storage.kv.get(inputs.key); } },
};`, []string{"storage"}},
		{"through a helper", `async function lookup(context, key) {
  return context.knowledge.retrieve({ query: key });
}
export const nodes = {
  'acme.upper': { async execute(ctx) { return lookup(ctx, ctx.inputs.q); } },
};`, []string{"knowledge"}},
		{"through two helpers", `const ask = async (c, prompt) => c.callAI({ messages: [{ role: 'user', content: prompt }] });
function summarize(ctx, text) { return ask(ctx, 'Summarize: ' + text); }
export const nodes = {
  'acme.upper': { async execute(ctx) { return summarize(ctx, ctx.inputs.text); } },
};`, []string{"callAI"}},
		{"named implementation", `async function runUpper(ctx) { return ctx.secrets.resolve({ ref: 'k', purpose: 'x' }); }
export const nodes = { 'acme.upper': { execute: runUpper } };`, []string{"secrets"}},
		{"helper without ctx", `function upper(s) { return s.toUpperCase(); }
export const nodes = { 'acme.upper': { async execute(ctx) { return { text: upper(ctx.inputs.text) }; } } };`, nil},
		{"array of nodes", `export const nodes = [
  { typeId: 'acme.upper', async execute(ctx) { return ctx.chat.sendMessage({}); } },
];`, []string{"chat"}},
		{"strings and comments are not code", `export const nodes = {
  'acme.upper': { async execute(ctx) { /* ctx.db */ const s = "ctx.http"; return { s }; } },
};`, nil},
		{"no such node", `export const nodes = {};`, nil},
		{"a host adapter no profile lists", `export const nodes = {
  'acme.upper': { async execute(ctx) {
    if (typeof ctx.dataIntegration.transform !== 'function') throw new Error('needs host.dataIntegration');
    return ctx.dataIntegration.transform(ctx.inputs.rows);
  } },
};`, []string{"dataIntegration.transform()"}},
		{"optional call of an adapter", `export const nodes = {
  'acme.upper': { async execute(c) { return c.ledger?.append?.(c.inputs.row); } },
};`, []string{"ledger.append()"}},
		{"the context's data and logging are no host call", `export const nodes = {
  'acme.upper': { async execute(ctx) {
    ctx.log.info('start', ctx.nodeId.trim(), ctx.runId.toString());
    ctx.signal.throwIfAborted();
    return { text: ctx.inputs.text.trim(), n: ctx.config.items.map((x) => x), t: ctx.triggerData.at.toString() };
  } },
};`, nil},
		{"an adapter destructured from ctx", `export const nodes = {
  'acme.upper': { async execute(ctx) { const { dataIntegration, inputs } = ctx; return dataIntegration.transform(inputs.rows); } },
};`, []string{"dataIntegration.transform()"}},
		{"an adapter destructured under another name", `export const nodes = {
  'acme.upper': { async execute(ctx) { const { dataIntegration: di } = ctx; return di?.transform?.(ctx.inputs.rows); } },
};`, []string{"dataIntegration.transform()"}},
		{"an adapter destructured in the parameter", `export const nodes = {
  'acme.upper': async ({ inputs, dataIntegration }) => dataIntegration.transform(inputs.rows),
};`, []string{"dataIntegration.transform()"}},
		{"the context's data destructured calls nothing", `export const nodes = {
  'acme.upper': { async execute(ctx) { const { inputs, config, nodeId, log } = ctx; log.info(nodeId.trim()); return { t: inputs.text.trim(), n: config.items.map((x) => x) }; } },
};`, nil},
		{"destructured from the inputs, not ctx", `export const nodes = {
  'acme.upper': { async execute(ctx) { const { rows } = ctx.inputs; return { n: rows.map((r) => r) }; } },
};`, nil},
		{"an adapter given a name of its own", `export const nodes = {
  'acme.upper': { async execute(ctx) { const di = ctx.dataIntegration; return di.transform(ctx.inputs.rows); } },
};`, []string{"dataIntegration.transform()"}},
		{"an adapter named with a string", `export const nodes = {
  'acme.upper': { async execute(ctx) { return ctx['dataIntegration'].transform(ctx?.["inputs"].rows); } },
};`, []string{"dataIntegration.transform()"}},
		{"an adapter named with a string, then given a name", `export const nodes = {
  'acme.upper': { async execute(ctx) { let di = ctx?.["dataIntegration"]
    return di?.transform?.(ctx.inputs.rows); } },
};`, []string{"dataIntegration.transform()"}},
		{"the context's data given a name calls nothing", `export const nodes = {
  'acme.upper': { async execute(ctx) { const rows = ctx.inputs; const log = ctx.log; const k = ctx[key]; log.info(k); return { n: rows.map((r) => r) }; } },
};`, nil},
		{"a member's value, not the member, given a name", `export const nodes = {
  'acme.upper': { async execute(ctx) { const t = ctx.dataIntegration || null; const u = ctx.dataIntegration.kind; x == ctx.dataIntegration; return { t, u }; } },
};`, nil},
		{"a guard alone calls nothing", `export const nodes = {
  'acme.upper': { async execute(ctx) { return { ok: typeof ctx.dataIntegration.transform === 'function' }; } },
};`, nil},
	}
	// Thousands of named members cost one more pass, not one each: the
	// call at the end is still found within the scan budget.
	var many strings.Builder
	many.WriteString("export const nodes = {\n  'acme.upper': { async execute(ctx) {\n")
	for i := range 4000 {
		fmt.Fprintf(&many, "    const m%d = ctx.member%d;\n", i, i)
	}
	many.WriteString("    const d = ctx.dataIntegration; return d.transform(ctx.inputs.rows);\n  } },\n};")
	tests = append(tests, struct {
		name, src string
		want      []string
	}{"4,000 named members", many.String(), []string{"dataIntegration.transform()"}})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := surfacesOf(tt.src, "acme.upper")
			if !slices.Equal(got, tt.want) {
				t.Errorf("surfaces = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestSurfacesRegistryShapes(t *testing.T) {
	// Named exports mapped by typeId, a helper that reads ctx?.http, and a
	// factory whose returned function takes ctx.
	src := `function pickHostFetch(ctx) {
  const hf = ctx?.http?.safeFetch;
  return typeof hf === 'function' ? hf : null;
}
export async function openapiCall(ctx) {
  const doc = ctx.inputs.openapi;
  return bareFetch(doc.url, {}, pickHostFetch(ctx));
}
function makeGrpc(kind) {
  return async function (ctx) {
    return ctx.storage.kv[kind]({});
  };
}
export const grpcUnary = makeGrpc('unary');
export const nodes = {
  'acme.openapi': openapiCall,
  'acme.grpc': grpcUnary,
};`
	x := Analyze([]byte(src), "index.mjs", nil)
	if got := surfaces(x.Node("acme.openapi")); !slices.Equal(got, []string{"http"}) {
		t.Errorf("openapi surfaces = %q, want [http]", got)
	}
	if got := surfaces(x.Node("acme.grpc")); !slices.Equal(got, []string{"storage"}) {
		t.Errorf("factory-made node surfaces = %q, want [storage]", got)
	}
}

// TestExecutorBounded: sources built to make a scanner quadratic, or a parser recurse deeply (brackets
// that never close, a call per line) are read in bounded time.
func TestBounded(t *testing.T) {
	srcs := []string{
		strings.Repeat("function a(", 200000),
		strings.Repeat("const a = (", 200000),
		"function h(c) { return c.db; }\nexport const nodes = { 'x': { execute(ctx) {\n" + strings.Repeat("h(ctx, h(ctx));\n", 100000) + "} } };",
		strings.Repeat("'x': ", 200000),
	}
	for i, src := range srcs {
		start := time.Now()
		x := Analyze([]byte(src), "index.mjs", nil)
		_ = surfaces(x.Node("x"))
		if d := time.Since(start); d > 30*time.Second { // quadratic would take hours; generous for a loaded machine
			t.Errorf("source %d (%d bytes) took %v", i, len(src), d)
		}
	}
}

// TestPackExecutorParsedOnce: the rules that read the pack's executor share
// one parse per pass, and each gets the whole scan budget, so a rule's

// TestBoundedManyNodes: many nodes, each following a fan of helper calls,
// cost the file's budget at most.
func TestBoundedManyNodes(t *testing.T) {
	var b strings.Builder
	b.WriteString("function h0(c) { return c.db; }\n")
	for i := 1; i < 30; i++ {
		fmt.Fprintf(&b, "function h%d(c) { h%d(c); return h%d(c); }\n", i, i-1, i-1)
	}
	b.WriteString("export const nodes = {\n")
	for i := range 3000 {
		fmt.Fprintf(&b, "  'n.%d': (ctx) => h29(ctx),\n", i)
	}
	b.WriteString("};\n")
	start := time.Now()
	f := Analyze([]byte(b.String()), "index.mjs", nil)
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("took %v", d)
	}
	t.Logf("%d nodes claimed in %v", len(f.TypeIDs()), time.Since(start))
}
