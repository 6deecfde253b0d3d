package lint

import (
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
