package assist

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wop-cli/wop/internal/catalog"
)

// bigPack writes a pack near the registry's 256 KB manifest ceiling (400
// nodes, 200 agents, 400 files) and a catalog of 150 packs of 10 node
// types each, and returns the pack.json text with the cursor marks left in:
// one on the last agent's modelClass value, one in its toolAllowlist.
func bigPack(b *testing.B) (Env, string, string) {
	root := b.TempDir()
	dir := filepath.Join(root, "vendor.acme.big")
	for _, d := range []string{"prompts", "schemas"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			b.Fatal(err)
		}
	}
	var nodes, agents []string
	for i := range 400 {
		ref := fmt.Sprintf("schemas/n%d.config.schema.json", i)
		writeFile(b, filepath.Join(dir, ref), `{"type": "object"}`)
		nodes = append(nodes, fmt.Sprintf(`{"typeId": "vendor.acme.big.n%d", "version": "1.0.0", "category": "data", "role": "pure", "configSchemaRef": %q, "description": %q}`, i, ref, strings.Repeat("d", 200)))
	}
	for i := range 200 {
		agents = append(agents, fmt.Sprintf(`{"agentId": "vendor.acme.big.a%d", "modelClass": "writing", "systemPromptRef": "prompts/a%d.md", "toolAllowlist": ["openwop:vendor.acme.big.n%d"]}`, i, i, i))
		writeFile(b, filepath.Join(dir, "prompts", fmt.Sprintf("a%d.md", i)), "x")
	}
	last := `{"agentId": "vendor.acme.big.last", "modelClass": "wri<|>ting", "toolAllowlist": ["openwop:<|>"]}`
	text := fmt.Sprintf(`{"name": "vendor.acme.big", "version": "1.0.0", "engines": {"openwop": ">=1.1.0 <2.0.0"}, "runtime": {"language": "javascript", "entry": "index.mjs"},
  "nodes": [%s],
  "agents": [%s, %s]}`, strings.Join(nodes, ",\n    "), strings.Join(agents, ",\n    "), last)
	cat := filepath.Join(root, "catalog")
	for p := range 150 {
		var ns []string
		for n := range 10 {
			ns = append(ns, fmt.Sprintf(`{"typeId": "vendor.p%d.n%d", "version": "1.0.0", "role": "pure"}`, p, n))
		}
		writeFile(b, filepath.Join(cat, fmt.Sprintf("vendor.p%d", p), "pack.json"), fmt.Sprintf(`{"name": "vendor.p%d", "version": "1.0.0", "nodes": [%s]}`, p, strings.Join(ns, ",")))
	}
	c, err := catalog.Open(context.Background(), cat, catalog.Options{})
	if err != nil {
		b.Fatal(err)
	}
	return Env{PackDir: dir, Catalog: c}, filepath.Join(dir, "pack.json"), text
}

// reportCPU reports the CPU time (all threads, the collector's too) per
// operation since start: this machine is shared, and wall time under load
// says little.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}

func writeFile(b *testing.B, path, text string) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		b.Fatal(err)
	}
}

// cursorAt takes the n-th mark (from 0) out of text, and every other.
func cursorAt(text string, n int) ([]byte, int) {
	parts := strings.Split(text, mark)
	off := len(strings.Join(parts[:n+1], ""))
	return []byte(strings.Join(parts, "")), off
}

func BenchmarkHover(b *testing.B) {
	env, path, text := bigPack(b)
	src, off := cursorAt(text, 0)
	b.SetBytes(int64(len(src)))
	doc := Doc{Path: path, Text: src}
	start := cpuTime()
	for b.Loop() {
		if _, _, ok := Hover(env, doc, off); !ok {
			b.Fatal("no hover")
		}
	}
	reportCPU(b, start)
}

func BenchmarkCompleteEnum(b *testing.B) {
	env, path, text := bigPack(b)
	src, off := cursorAt(text, 0)
	doc := Doc{Path: path, Text: src}
	start := cpuTime()
	for b.Loop() {
		if len(Complete(env, doc, off)) == 0 {
			b.Fatal("no items")
		}
	}
	reportCPU(b, start)
}

func BenchmarkCompleteTool(b *testing.B) {
	env, path, text := bigPack(b)
	src, off := cursorAt(text, 1)
	doc := Doc{Path: path, Text: src}
	start := cpuTime()
	for b.Loop() {
		if n := len(Complete(env, doc, off)); n < 1900 {
			b.Fatalf("%d items", n)
		}
	}
	reportCPU(b, start)
}

func BenchmarkCompleteFile(b *testing.B) {
	env, path, text := bigPack(b)
	text = strings.Replace(text, `"modelClass": "wri<|>ting"`, `"systemPromptRef": "<|>"`, 1)
	src, off := cursorAt(text, 0)
	doc := Doc{Path: path, Text: src}
	start := cpuTime()
	for b.Loop() {
		if n := len(Complete(env, doc, off)); n < 600 {
			b.Fatalf("%d items", n)
		}
	}
	reportCPU(b, start)
}
