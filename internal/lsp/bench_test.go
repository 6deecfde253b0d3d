package lsp

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wop-cli/wop/internal/lsp/lsptest"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
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

// benchSession is a server and a client on a pipe to it: in process (with
// the default debounce), or, when $WOP_LSP_BENCH_BIN names a wop binary,
// that binary's `wop lsp` (bench/lsp.sh times main's build and this one's
// with the same client). pid is the external server's process (0 in
// process).
func benchSession(tb testing.TB, ctx context.Context, root string) (c *lsptest.Client, pid int) {
	bin := os.Getenv("WOP_LSP_BENCH_BIN")
	if bin == "" {
		a, b := net.Pipe()
		go Serve(ctx, a, Options{Env: testEnv(root, io.Discard)})
		tb.Cleanup(func() { b.Close() })
		c = lsptest.New(ctx, b)
	} else {
		cmd := exec.CommandContext(ctx, bin, "lsp", "--stdio")
		cmd.Dir, cmd.Stderr = root, io.Discard
		cmd.Env = append(os.Environ(), "WOP_CACHE_DIR=off", "HOME="+tb.TempDir())
		in, err := cmd.StdinPipe()
		if err != nil {
			tb.Fatal(err)
		}
		out, err := cmd.StdoutPipe()
		if err != nil {
			tb.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(func() { in.Close(); _ = cmd.Wait() })
		c = lsptest.New(ctx, pipes{out, in})
		pid = cmd.Process.Pid
	}
	if _, err := c.Initialize(ctx, root); err != nil {
		tb.Fatal(err)
	}
	return c, pid
}

// pipes is a child's standard output and input as one stream.
type pipes struct {
	io.Reader
	io.WriteCloser
}

// benchPack is the pack the edit benchmarks type in: $WOP_LSP_BENCH_PACK,
// or a generated 150-node pack.
func benchPack(b *testing.B) string {
	if dir := os.Getenv("WOP_LSP_BENCH_PACK"); dir != "" {
		return dir
	}
	dir := filepath.Join(b.TempDir(), "community.example.bench")
	writePack(b, dir, "community.example.bench", 150)
	return dir
}

// openManifest opens the pack's pack.json and waits for its first
// diagnostics.
func openManifest(b *testing.B, ctx context.Context, c *lsptest.Client, dir string) (path, text string) {
	path = filepath.Join(dir, "pack.json")
	raw, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	if err := c.Open(ctx, path, string(raw)); err != nil {
		b.Fatal(err)
	}
	if _, err := c.Diagnostics(ctx, path, lsptest.AtVersion(1)); err != nil {
		b.Fatal(err)
	}
	return path, string(raw)
}

// typed is the manifest after the i-th keystroke of the benchmarks: one
// more word in the pack's description.
func typed(text string, i int) string {
	return strings.Replace(text, `"description": "`, fmt.Sprintf(`"description": "edit %d `, i), 1)
}

// msPercentiles reports the median and p95 of times as name-median-ms and
// name-p95-ms.
func msPercentiles(b *testing.B, name string, times []time.Duration) {
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, name+"median-ms")
	b.ReportMetric(float64(times[len(times)*95/100].Microseconds())/1000, name+"p95-ms")
}

// BenchmarkEditToDiagnostics times an edit of pack.json until the
// diagnostics of that version are published, and the heap after the edits
// against after the first.
func BenchmarkEditToDiagnostics(b *testing.B) {
	dir := benchPack(b)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c, pid := benchSession(b, ctx, dir)
	manifest, text := openManifest(b, ctx, c, dir)
	// The server's CPU time: in process, the whole process's (the client's
	// included).
	cpuTime := cpuTime
	if pid != 0 {
		cpuTime = func() time.Duration { return procCPU(pid) }
	}
	var times []time.Duration
	var first runtime.MemStats
	cpu0 := cpuTime()
	b.ResetTimer()
	for i := range b.N {
		t0 := time.Now()
		v, err := c.Change(ctx, manifest, lsptest.Edit{Text: typed(text, i)})
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
	msPercentiles(b, "", times)
	if pid == 0 { // the server's heap is this process's
		var last runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&last)
		b.ReportMetric(float64(last.HeapInuse)/float64(first.HeapInuse), "heap-last/first")
	} else if kb := procPeakRSS(pid); kb > 0 {
		b.ReportMetric(float64(kb)/1024, "peak-RSS-MB")
	}
	b.ReportMetric(float64(len(text))/1024, "manifest-KB")
	// CPU per edit: what the wall-clock figures cost on a machine that is
	// not shared.
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
}

// BenchmarkRequestsWhileTyping times hover (on a node's typeId) and
// completion (in the license value) asked while the edit before them is
// being linted: each iteration edits pack.json, waits past the debounce
// so its run has started, asks both one after the other, then waits for
// the edit's diagnostics.
func BenchmarkRequestsWhileTyping(b *testing.B) {
	dir := benchPack(b)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c, _ := benchSession(b, ctx, dir)
	manifest, text := openManifest(b, ctx, c, dir)
	doc := protocol.TextDocumentIdentifier{URI: uri.File(manifest)}
	// Positions in the text after the edit, all past the description
	// the edits lengthen, so each is found in the text it is asked of.
	posOf := func(text, what string, skip int) protocol.Position {
		i := strings.LastIndex(text, what)
		if i < 0 {
			b.Fatalf("%q not in %s", what, manifest)
		}
		return positionOf([]byte(text), i+skip)
	}
	var hovers, completions []time.Duration
	b.ResetTimer()
	for i := range b.N {
		edited := typed(text, i)
		v, err := c.Change(ctx, manifest, lsptest.Edit{Text: edited})
		if err != nil {
			b.Fatal(err)
		}
		time.Sleep(DefaultDebounce + 5*time.Millisecond)
		var hover protocol.Hover
		var list protocol.CompletionList
		ask := []func(){func() {
			t0 := time.Now()
			if err := c.Call(ctx, protocol.MethodTextDocumentHover, &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
				TextDocument: doc, Position: posOf(edited, `"typeId": "`, len(`"typeId": "`)+3)}}, &hover); err != nil {
				b.Fatal(err)
			}
			hovers = append(hovers, time.Since(t0))
		}, func() {
			t0 := time.Now()
			if err := c.Call(ctx, protocol.MethodTextDocumentCompletion, &protocol.CompletionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
				TextDocument: doc, Position: posOf(edited, `"license": "`, len(`"license": "`)+1)}}, &list); err != nil {
				b.Fatal(err)
			}
			completions = append(completions, time.Since(t0))
		}}
		// Each goes first every other time: the first one asked meets
		// the run in progress, the second may find it done.
		ask[i%2]()
		ask[1-i%2]()
		if i == 0 && (hover.Contents.Value == "" || len(list.Items) == 0) {
			b.Fatalf("hover %q, %d completion items: the positions answer nothing", hover.Contents.Value, len(list.Items))
		}
		if _, err := c.Diagnostics(ctx, manifest, lsptest.AtVersion(v)); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	msPercentiles(b, "hover-", hovers)
	msPercentiles(b, "completion-", completions)
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
		c, _ := benchSession(b, ctx, root)
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

// procCPU is a process's user and system CPU time so far, from Linux's
// /proc (0 elsewhere), in clock ticks of 10 ms.
func procCPU(pid int) time.Duration {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// Fields from the third on follow the command's closing parenthesis;
	// utime and stime are the 14th and 15th.
	f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	if len(f) < 13 {
		return 0
	}
	user, _ := strconv.Atoi(f[11])
	sys, _ := strconv.Atoi(f[12])
	return time.Duration(user+sys) * 10 * time.Millisecond
}

// procPeakRSS is a process's peak resident set in KiB, from Linux's /proc
// (0 elsewhere).
func procPeakRSS(pid int) int {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(status)) {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			return kb
		}
	}
	return 0
}
