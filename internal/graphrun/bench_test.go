package graphrun

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/wop-cli/wop/internal/chaindraw"
)

// BenchmarkDrawCheckout draws every chain of the checkout $WOP_BENCH_CHECKOUT
// (a folder of packs; bench/graph.sh sets it) in every format in one
// process: the analysis with lint's options, then each printer (svg through
// Graphviz in process, the helper's code). Skipped without the variable.
func BenchmarkDrawCheckout(b *testing.B) {
	dir := os.Getenv("WOP_BENCH_CHECKOUT")
	if dir == "" {
		b.Skip("set WOP_BENCH_CHECKOUT to a folder of packs")
	}
	dir, _ = filepath.Abs(dir)
	env := testEnv(b, nil)
	b.Setenv("WOP_GRAPHRUN_TEST_HELPER", "1")
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	env.Getenv = func(k string) string {
		if k == "WOP_GRAPHVIZ_HELPER" {
			return exe
		}
		return ""
	}
	env.CacheDir = b.TempDir()
	for b.Loop() {
		charts, err := Charts(b.Context(), env, Options{Paths: []string{dir}})
		if err != nil {
			b.Fatal(err)
		}
		for _, f := range chaindraw.Formats {
			o := Options{Format: f}
			if f == "mermaid" {
				o.Output = "chains.md" // a checkout's chains pass Mermaid's limits for one diagram
			}
			out, err := Render(b.Context(), env, charts, o)
			if err != nil {
				b.Fatal(err)
			}
			_, _ = io.Discard.Write(out)
		}
	}
}
