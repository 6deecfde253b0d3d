package lint

import (
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wop-cli/wop/internal/catalog"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/tarball"
	"github.com/wop-cli/wop/internal/testutil/filetree"
)

func TestExecutorSurfaces(t *testing.T) {
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
			got := parseExecutor(tt.src).surfaces("acme.upper")
			if !slices.Equal(got, tt.want) {
				t.Errorf("surfaces = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestExecutorToleratesMissing(t *testing.T) {
	tests := []struct {
		name, src string
		want      string // a word of the explanation; "" for none
	}{
		{"fallback in a helper", `function toMessages(input) {
  if (Array.isArray(input.messages) && input.messages.length) return input.messages;
  const text = input.prompt ?? input.text ?? JSON.stringify(input);
  return [{ role: 'user', content: text }];
}
export const nodes = { 'acme.chat': { async execute(ctx) { return ctx.callAI({ messages: toMessages(ctx.inputs) }); } } };`, "checks"},
		{"nullish fallback", `export const nodes = { 'acme.chat': { async execute(ctx) { const m = ctx.inputs.messages ?? []; return { m }; } } };`, "falls back"},
		{"destructuring default", `export const nodes = { 'acme.chat': { async execute(ctx) { const { messages = [] } = ctx.inputs; return { messages }; } } };`, "default"},
		{"presence check", `export const nodes = { 'acme.chat': { async execute(ctx) { if (!ctx.inputs.messages) { return { messages: [] }; } return ctx.inputs; } } };`, "checks"},
		{"plain use", `export const nodes = { 'acme.chat': { async execute(ctx) { return ctx.callAI({ messages: ctx.inputs.messages }); } } };`, ""},
		{"another node's fallback", `export const nodes = {
  'acme.other': { async execute(ctx) { return ctx.inputs.messages ?? []; } },
  'acme.chat': { async execute(ctx) { return ctx.inputs.messages.length; } },
};`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := parseExecutor(tt.src).toleratesMissing("acme.chat", "messages")
			if tt.want == "" && got != "" || !strings.Contains(got, tt.want) {
				t.Errorf("toleratesMissing = %q, want one with %q", got, tt.want)
			}
		})
	}
}

// FuzzExecutor: any source, however broken, is scanned without a panic
// and without running away (brackets that never close, endless strings).
func FuzzExecutor(f *testing.F) {
	f.Add(`export const nodes = { 'acme.upper': { async execute(ctx) { return ctx.db.get(ctx.inputs.k ?? 1); } } };`, "acme.upper")
	f.Add("function a(c) { return b(c) }\nfunction b(c) { return a(c) }\nexport const nodes = { 'x': { execute: a } };", "x")
	f.Add("const { db } = ctx; `${'{'}` /* ( */ 'x': (", "x")
	f.Add("export const nodes = { 'x': async ({ dataIntegration: di }) => { const { a } = ctx; return di?.t?.(a.b()); } };", "x")
	f.Fuzz(func(t *testing.T, src, typeID string) {
		x := parseExecutor(src)
		for _, s := range x.surfaces(typeID) {
			// a listed surface, or a call through another member of ctx
			// (hostCall, boundCalls): "member.method()"
			member, method, call := strings.Cut(strings.TrimSuffix(s, "()"), ".")
			if !slices.Contains(hostSurfaces, s) && !(call && strings.HasSuffix(s, "()") && isContextMember(member) && method != "") {
				t.Fatalf("surface %q is not a host surface", s)
			}
		}
		_ = x.toleratesMissing(typeID, "messages")
	})
}

func TestExecutorSurfacesRegistryShapes(t *testing.T) {
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
	x := parseExecutor(src)
	if got := x.surfaces("acme.openapi"); !slices.Equal(got, []string{"http"}) {
		t.Errorf("openapi surfaces = %q, want [http]", got)
	}
	if got := x.surfaces("acme.grpc"); !slices.Equal(got, []string{"storage"}) {
		t.Errorf("factory-made node surfaces = %q, want [storage]", got)
	}
}

// TestExecutorBounded: sources built to make a scanner quadratic (brackets
// that never close, a call per line) are read in bounded time.
func TestExecutorBounded(t *testing.T) {
	srcs := []string{
		strings.Repeat("function a(", 200000),
		strings.Repeat("const a = (", 200000),
		"function h(c) { return c.db; }\nexport const nodes = { 'x': { execute(ctx) {\n" + strings.Repeat("h(ctx, h(ctx));\n", 100000) + "} } };",
		strings.Repeat("'x': ", 200000),
	}
	for i, src := range srcs {
		start := time.Now()
		x := parseExecutor(src)
		_ = x.surfaces("x")
		_ = x.toleratesMissing("x", "messages")
		if d := time.Since(start); d > 30*time.Second { // quadratic would take hours; generous for a loaded machine
			t.Errorf("source %d (%d bytes) took %v", i, len(src), d)
		}
	}
}

// TestPackExecutorParsedOnce: the rules that read the pack's executor share
// one parse per pass, and each gets the whole scan budget, so a rule's
// findings never depend on what another rule scanned first.
func TestPackExecutorParsedOnce(t *testing.T) {
	dir := t.TempDir()
	filetree.Write(t, dir, map[string]string{
		"pack.json": `{"name":"community.acme.x","version":"1.0.0","runtime":{"language":"javascript","entry":"index.mjs"}}`,
		"index.mjs": "function helper(ctx) { return ctx.db; }\nexport const nodes = {};\n",
	})
	pk, err := pack.Load(dir, tarball.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	p := &Pass{Pack: pk, files: map[string]fileRead{}, json: map[string]*jsonFile{}}
	p.Manifest, _, _ = p.JSON(pack.ManifestName)
	a := packExecutor(p)
	a.spend(scanBudget - 1)
	b := packExecutor(p)
	if reflect.ValueOf(a.defs).Pointer() != reflect.ValueOf(b.defs).Pointer() {
		t.Error("the executor was parsed again for the second rule")
	}
	if b.budget != scanBudget || len(b.defs) != 2 {
		t.Errorf("second reader: budget %d, %d defs; want %d and 2 (helper, nodes)", b.budget, len(b.defs), scanBudget)
	}
}

// TestChainFillsReadTheOwnExecutorOnce: in a catalog that holds the pack
// being linted (a registry checkout), the chain analysis asks about the
// pack's own node types through the pass's one parse of its executor, not
// a second parse of the catalog's copy.
func TestChainFillsReadTheOwnExecutorOnce(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "community.acme.x")
	filetree.Write(t, dir, map[string]string{
		"pack.json": `{"name":"community.acme.x","version":"1.0.0","runtime":{"language":"javascript","entry":"index.mjs"},
 "nodes":[{"typeId":"community.acme.x.up","version":"1.0.0"}]}`,
		"index.mjs": "export const nodes = { 'community.acme.x.up': { async execute(ctx) { return { t: ctx.inputs.t ?? '' }; } } };\n",
	})
	c, err := catalog.Open(t.Context(), root, catalog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	pk, err := pack.Load(dir, tarball.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	p := &Pass{Pack: pk, Catalog: c, files: map[string]fileRead{}, json: map[string]*jsonFile{}}
	p.Manifest, _, _ = p.JSON(pack.ManifestName)
	n, ok := c.NodeType("community.acme.x.up")
	if !ok {
		t.Fatal("the catalog lacks the pack's node type")
	}
	if !chainOptions(p).Fills(n, "t") {
		t.Error("the executor's fallback for t was not seen")
	}
	if p.executor == nil {
		t.Error("the pack's own node type was read from a second parse of its executor, not the pass's")
	}
}
