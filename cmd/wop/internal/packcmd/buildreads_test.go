package packcmd

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/wop-cli/wop/cmd/wop/internal/cli"
)

// readCalls is how many read system calls this process has made (Linux).
func readCalls(t *testing.T) int {
	t.Helper()
	data, err := os.ReadFile("/proc/self/io")
	if err != nil {
		t.Skip("no /proc/self/io here")
	}
	for line := range strings.Lines(string(data)) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "syscr: "); ok {
			n, err := strconv.Atoi(v)
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Skip("no syscr in /proc/self/io")
	return 0
}

// TestBuildReadsEachFileOnce: a build lints the pack, checks it for
// secrets and writes the archive, and reads each source file from disk
// once for all three (two read calls: the bytes, then end of file), where
// each step reading on its own made six.
func TestBuildReadsEachFileOnce(t *testing.T) {
	root := t.TempDir()
	const prompts = 40
	var agents []string
	for i := range prompts {
		name := fmt.Sprintf("prompts/p%02d.md", i)
		agents = append(agents, fmt.Sprintf(`{"agentId":"private.acme.reads.a%d","persona":"A","modelClass":"general","systemPromptRef":%q}`, i, name))
		p := filepath.Join(root, "pack", filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(fmt.Sprintf("Prompt %d.\n", i)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	manifest := `{"name":"private.acme.reads","version":"1.0.0","engines":{"openwop":">=1.1.0 <2.0.0"},
  "runtime":{"language":"remote","entry":"pack.json"},"agents":[` + strings.Join(agents, ",") + `]}`
	if err := os.WriteFile(filepath.Join(root, "pack", "pack.json"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	env := &cli.Env{Out: &out, ErrOut: &errOut, Getenv: func(string) string { return "" }, WorkDir: root}
	o := &buildOptions{env: env, outDir: "out", dirs: []string{"pack"}}
	o.keys.spec, o.keys.unsigned = "auto", true
	before := readCalls(t)
	if err := runBuild(context.Background(), o); err != nil {
		t.Fatalf("%v\n%s", err, errOut.String())
	}
	if got := readCalls(t) - before; got > 2*(prompts+1)+20 {
		t.Errorf("%d read calls to build %d files, want about two a file", got, prompts+1)
	}
}
