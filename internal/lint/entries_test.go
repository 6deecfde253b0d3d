package lint

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/tarball"
)

// manyEntries writes a .tgz of a valid manifest and n entries: a small
// schema every schemaEvery entries, prompts holding prompt otherwise, and
// returns its path. With empty prompts and a schema every ten, 150,000
// entries (the hostile shape) compress to under a megabyte and inflate to
// about 80 MB, under the inflation bound.
func manyEntries(tb testing.TB, n, schemaEvery int, prompt string) string {
	tb.Helper()
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	tw := tar.NewWriter(zw)
	add := func(name, data string) {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(data)), Typeflag: tar.TypeReg, Format: tar.FormatUSTAR}); err != nil {
			tb.Fatal(err)
		}
		tw.Write([]byte(data))
	}
	add("pack.json", `{"name":"community.acme.demo","version":"1.0.0","engines":{"openwop":">=1.1.0 <2.0.0"},"runtime":{"language":"remote","entry":"pack.json"},"agents":[{"agentId":"community.acme.demo.a","persona":"A","modelClass":"general","systemPrompt":"Hi."}]}`)
	for i := range n {
		if i%schemaEvery == 0 {
			add(fmt.Sprintf("schemas/s%d.json", i), "{}")
		} else {
			add(fmt.Sprintf("prompts/p%d.md", i), prompt)
		}
	}
	if err := tw.Close(); err != nil {
		tb.Fatal(err)
	}
	zw.Close()
	p := filepath.Join(tb.TempDir(), "many.tgz")
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		tb.Fatal(err)
	}
	return p
}

// lintManyEntries loads and lints the archive at p with the entry ceiling
// raised to n, returning the CPU time taken.
func lintManyEntries(tb testing.TB, p string, n int) time.Duration {
	tb.Helper()
	lim := tarball.DefaultLimits
	lim.MaxEntries = n + 1
	start := cpuTime()
	pk, err := pack.Load(p, lim)
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := Run(pk, Options{}); err != nil {
		tb.Fatal(err)
	}
	return cpuTime() - start
}

// TestLintGrowsLinearlyWithEntries: four times the entries cost about four
// times the work, not sixteen (every file read used to search the whole
// archive: 150,000 entries took 48 s). The ratio of CPU times, best of
// two, holds on a loaded machine where absolute times do not; at these
// sizes the quadratic version measured 14.7, the linear one 4.6.
func TestLintGrowsLinearlyWithEntries(t *testing.T) {
	if testing.Short() {
		t.Skip("lints 100,000 entries")
	}
	const small, large = 20_000, 80_000
	ps, pl := manyEntries(t, small, 2, "Hi.\n"), manyEntries(t, large, 2, "Hi.\n")
	best := func(p string, n int) time.Duration {
		d := time.Duration(1<<63 - 1)
		for range 2 {
			d = min(d, lintManyEntries(t, p, n))
		}
		return d
	}
	s, l := best(ps, small), best(pl, large)
	ratio := float64(l) / float64(s)
	t.Logf("%d entries: %v, %d: %v, ratio %.1f", small, s, large, l, ratio)
	if ratio >= 8 {
		t.Errorf("%d entries took %v, %d took %v: ratio %.1f, want under 8 (linear is 4, quadratic 16)", small, s, large, l, ratio)
	}
}

// TestEntryCeilingRefusedAtOnce: past limits.entries the archive is refused
// as soon as the first entry over the ceiling is seen, with a message
// naming the ceiling.
func TestEntryCeilingRefusedAtOnce(t *testing.T) {
	p := manyEntries(t, 150_000, 10, "")
	start := cpuTime()
	_, err := pack.Load(p, tarball.DefaultLimits)
	took := cpuTime() - start
	if err == nil || err.Error() != "more than 10000 entries (the entry ceiling, limits.entries); nothing past the ceiling was read" {
		t.Fatalf("err = %v", err)
	}
	if took > time.Second*raceSlowdown {
		t.Errorf("refusing took %v of CPU", took)
	}
}

// BenchmarkLintArchive150kEntries lints the 150,000-entry archive of the
// report, the ceiling raised so it is read whole.
func BenchmarkLintArchive150kEntries(b *testing.B) {
	const n = 150_000
	p := manyEntries(b, n, 10, "")
	var cpu time.Duration
	for b.Loop() {
		cpu += lintManyEntries(b, p, n)
	}
	b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
}
