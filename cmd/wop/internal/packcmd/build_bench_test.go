package packcmd

import (
	"context"
	"crypto/ed25519"
	"crypto/x509"
	"encoding/pem"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/pack"
)

// benchBuild sets up a signed build of every pack under $WOP_BENCH_PACKS
// (skipped when unset) into a scratch folder.
func benchBuild(b *testing.B) (*buildOptions, []string) {
	root := os.Getenv("WOP_BENCH_PACKS")
	if root == "" {
		b.Skip("set WOP_BENCH_PACKS to a folder of packs")
	}
	dirs, err := pack.Discover(root)
	if err != nil {
		b.Fatal(err)
	}
	tmp := b.TempDir()
	_, priv, _ := ed25519.GenerateKey(nil)
	der, err := x509.MarshalPKCS8PrivateKey(priv)
	if err != nil {
		b.Fatal(err)
	}
	key := filepath.Join(tmp, "bench.pem")
	if err := os.WriteFile(key, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), 0o600); err != nil {
		b.Fatal(err)
	}
	env := &cli.Env{Out: io.Discard, ErrOut: io.Discard, Getenv: func(string) string { return "" }, WorkDir: tmp}
	o := &buildOptions{env: env, outDir: filepath.Join(tmp, "out"), noLint: os.Getenv("WOP_BENCH_NOLINT") != ""}
	o.keys.key, o.keys.keyID, o.keys.spec = key, "bench", "auto"
	return o, dirs
}

// BenchmarkBuildCorpusEach builds every pack under $WOP_BENCH_PACKS with one
// runBuild each, as `wop pack build DIR` once per pack does minus process
// start-up; bench/build.sh measures whole processes.
func BenchmarkBuildCorpusEach(b *testing.B) {
	o, dirs := benchBuild(b)
	for b.Loop() {
		for _, dir := range dirs {
			o.dirs = []string{dir}
			_ = runBuild(context.Background(), o)
		}
	}
}

// BenchmarkBuildCorpusAll builds every pack under $WOP_BENCH_PACKS in one
// runBuild, as `wop pack build DIR...` does.
func BenchmarkBuildCorpusAll(b *testing.B) {
	o, dirs := benchBuild(b)
	o.dirs = dirs
	for b.Loop() {
		_ = runBuild(context.Background(), o)
	}
}
