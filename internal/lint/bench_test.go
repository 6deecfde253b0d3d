package lint

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/tarball"
)

// BenchmarkLintExample lints a bundled example pack (load + all rules), the
// pre-commit case minus process start-up; bench/lint.sh measures the whole
// process.
func BenchmarkLintExample(b *testing.B) {
	dir := filepath.Join("..", "..", "examples", "community.example.support-agents")
	for b.Loop() {
		pk, err := pack.Load(dir, tarball.DefaultLimits)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Run(pk, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLintCorpus lints every pack under $WOP_BENCH_PACKS (a folder of
// pack folders; skipped when unset), each with a fresh load, as one cold
// `wop pack lint FOLDER` does minus process start-up. Profile it with
// -cpuprofile to see where lint's time goes on real packs.
func BenchmarkLintCorpus(b *testing.B) {
	root := os.Getenv("WOP_BENCH_PACKS")
	if root == "" {
		b.Skip("set WOP_BENCH_PACKS to a folder of packs")
	}
	dirs, err := pack.Discover(root)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		for _, dir := range dirs {
			pk, err := pack.Load(dir, tarball.DefaultLimits)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := Run(pk, Options{}); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkCacheKeyStrings is the part of the lint cache's key that reads
// the strings of a pack's JSON files (to name the catalog ids it uses), on
// a bundled example: paid before every cached run.
func BenchmarkCacheKeyStrings(b *testing.B) {
	pk, err := pack.Load(filepath.Join("..", "..", "examples", "community.example.text-chains"), tarball.DefaultLimits)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if len(stringsIn(pk)) == 0 {
			b.Fatal("no strings")
		}
	}
}
