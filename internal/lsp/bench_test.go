package lsp

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wop-cli/wop/internal/lsp/lsptest"
)

// The budgets of issue 27, measured (not asserted): edit -> diagnostics
// published, median and p95, on a large pack; initialize -> first
// diagnostics inside a 150-pack registry checkout; memory after many edits
// against after the first. $WOP_LSP_BENCH_PACK names a real pack to use
// instead of the generated one (bench/lsp.sh passes the corpus's largest).

// writePack writes a node pack named name with nodes nodes, each with
// its three schemas, into dir.
func writePack(tb testing.TB, dir, name string, nodes int) {
	tb.Helper()
	var items []string
	for i := range nodes {
		id := fmt.Sprintf("n%03d", i)
		items = append(items, fmt.Sprintf(`    {
      "typeId": "%s.%s",
      "version": "1.0.0",
      "label": "Node %d",
      "description": "Node %d of the benchmark pack: it upper-cases a string, and says so at some length.",
      "category": "data",
      "role": "pure",
      "capabilities": ["cacheable"],
      "configSchemaRef": "schemas/%s.config.json",
      "inputSchemaRef": "schemas/%s.input.json",
      "outputSchemaRef": "schemas/%s.output.json"
    }`, name, id, i, i, id, id, id))
		for _, kind := range []string{"config", "input", "output"} {
			schema := fmt.Sprintf(`{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://packs.openwop.dev/%s/1.0.0/%s.%s.json",
  "title": "%s.%s.json",
  "type": "object",
  "properties": {"text": {"type": "string", "description": "the text"}},
  "additionalProperties": false
}
`, name, id, kind, id, kind)
			mustWrite(tb, filepath.Join(dir, "schemas", id+"."+kind+".json"), schema)
		}
	}
	manifest := fmt.Sprintf(`{
  "name": "%s",
  "version": "1.0.0",
  "description": "A generated pack for the language server's benchmarks.",
  "author": "Example Author",
  "license": "Apache-2.0",
  "keywords": ["bench"],
  "engines": {"openwop": ">=1.1.0 <2.0.0"},
  "nodes": [
%s
  ],
  "runtime": {"language": "javascript", "format": "esm", "entry": "index.mjs"}
}
`, name, strings.Join(items, ",\n"))
	mustWrite(tb, filepath.Join(dir, "pack.json"), manifest)
	mustWrite(tb, filepath.Join(dir, "index.mjs"), "export const nodes = {};\n")
	mustWrite(tb, filepath.Join(dir, "README.md"), "# "+name+"\n\nA generated pack.\n")
	mustWrite(tb, filepath.Join(dir, "LICENSE"), "Apache-2.0\n")
}

func mustWrite(tb testing.TB, path, text string) {
	tb.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		tb.Fatal(err)
	}
}

// benchSession is a server in process (with the default debounce) and a
// client on a pipe.
func benchSession(tb testing.TB, ctx context.Context, root string) *lsptest.Client {
	a, b := net.Pipe()
	go Serve(ctx, a, Options{Env: testEnv(root, io.Discard)})
	tb.Cleanup(func() { b.Close() })
	c := lsptest.New(ctx, b)
	if _, err := c.Initialize(ctx, root); err != nil {
		tb.Fatal(err)
	}
	return c
}

// BenchmarkEditToDiagnostics times an edit of pack.json until the
// diagnostics of that version are published, and the heap after the edits
// against after the first.
func BenchmarkEditToDiagnostics(b *testing.B) {
	dir := os.Getenv("WOP_LSP_BENCH_PACK")
	if dir == "" {
		dir = filepath.Join(b.TempDir(), "community.example.bench")
		writePack(b, dir, "community.example.bench", 150)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := benchSession(b, ctx, dir)
	manifest := filepath.Join(dir, "pack.json")
	raw, err := os.ReadFile(manifest)
	if err != nil {
		b.Fatal(err)
	}
	text := string(raw)
	if err := c.Open(ctx, manifest, text); err != nil {
		b.Fatal(err)
	}
	if _, err := c.Diagnostics(ctx, manifest, lsptest.AtVersion(1)); err != nil {
		b.Fatal(err)
	}
	var times []time.Duration
	var first runtime.MemStats
	cpu0 := cpuTime()
	b.ResetTimer()
	for i := range b.N {
		edited := strings.Replace(text, `"description": "`, fmt.Sprintf(`"description": "edit %d `, i), 1)
		t0 := time.Now()
		v, err := c.Change(ctx, manifest, lsptest.Edit{Text: edited})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := c.Diagnostics(ctx, manifest, lsptest.AtVersion(v)); err != nil {
			b.Fatal(err)
		}
		times = append(times, time.Since(t0))
		if i == 0 {
			runtime.GC()
			runtime.ReadMemStats(&first)
		}
	}
	b.StopTimer()
	cpu := cpuTime() - cpu0
	var last runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&last)
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "median-ms")
	b.ReportMetric(float64(times[len(times)*95/100].Microseconds())/1000, "p95-ms")
	b.ReportMetric(float64(last.HeapInuse)/float64(first.HeapInuse), "heap-last/first")
	b.ReportMetric(float64(len(raw))/1024, "manifest-KB")
	// CPU per edit (server and client, both cores): what the wall-clock
	// figures cost on a machine that is not shared.
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
}

// BenchmarkInitializeToFirstDiagnostics times a new session inside a
// 150-pack registry checkout, from initialize to the first diagnostics of
// the pack.json it opens (the checkout's catalog read included).
func BenchmarkInitializeToFirstDiagnostics(b *testing.B) {
	root := filepath.Join(b.TempDir(), "registry")
	mustWrite(b, filepath.Join(root, "registry", ".well-known", "openwop-registry.json"), `{"registryVersion": "1.0.0"}`+"\n")
	for i := range 150 {
		name := fmt.Sprintf("community.example.p%03d", i)
		writePack(b, filepath.Join(root, "packs", name), name, 3)
	}
	manifest := filepath.Join(root, "packs", "community.example.p075", "pack.json")
	raw, err := os.ReadFile(manifest)
	if err != nil {
		b.Fatal(err)
	}
	var times []time.Duration
	b.ResetTimer()
	for range b.N {
		ctx, cancel := context.WithCancel(context.Background())
		t0 := time.Now()
		c := benchSession(b, ctx, root)
		if err := c.Open(ctx, manifest, string(raw)); err != nil {
			b.Fatal(err)
		}
		if _, err := c.Diagnostics(ctx, manifest, lsptest.AtVersion(1)); err != nil {
			b.Fatal(err)
		}
		times = append(times, time.Since(t0))
		cancel()
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "median-ms")
}
