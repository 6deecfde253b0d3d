package lint

import (
	"slices"
	"strings"
	"testing"
	"time"
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
	}
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
	f.Fuzz(func(t *testing.T, src, typeID string) {
		x := parseExecutor(src)
		for _, s := range x.surfaces(typeID) {
			if !slices.Contains(hostSurfaces, s) {
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
