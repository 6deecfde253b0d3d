package root

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wop-cli/wop/cmd/wop/internal/cli"
)

func run(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	return runWith(t, context.Background(), dir, nil, args...)
}

// runWith runs wop in-process with its own environment variables.
func runWith(t *testing.T, ctx context.Context, dir string, vars map[string]string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	env := &cli.Env{In: strings.NewReader(""), Out: &out, ErrOut: &errOut, Getenv: func(k string) string { return vars[k] },
		WorkDir: dir, Version: "test", HTTPClient: func() *http.Client { return &http.Client{} }}
	code := Main(ctx, args, env)
	printed.record(out.String(), errOut.String())
	return code, out.String(), errOut.String()
}

// TestExitCodes pins the documented exit codes, which scripts only see as
// "non-zero".
func TestExitCodes(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	good := `{"name":"community.acme.demo","version":"1.0.0","engines":{"openwop":">=1.1.0 <2.0.0"},"runtime":{"language":"remote","entry":"pack.json"},"agents":[{"agentId":"community.acme.demo.a","persona":"A","modelClass":"general","systemPrompt":"hi"}]}`
	write("good/pack.json", good)
	write("warn/pack.json", good)
	write("warn/keys/pack.json.sig", "stale")
	write("bad/pack.json", `{"name":`)
	write("notgz.tgz", "text")
	write("nogit/registry/.well-known/openwop-registry.json", "{}") // a registry checkout without .git
	write("next/pack.json", strings.Replace(good, `"agents":[{"agentId":"community.acme.demo.a","persona":"A","modelClass":"general","systemPrompt":"hi"}]`, `"agents":[]`, 1))
	tests := []struct {
		args []string
		code int
	}{
		{[]string{"pack", "lint", "good"}, cli.ExitOK},
		{[]string{"pack", "lint", "warn"}, cli.ExitOK},
		{[]string{"pack", "lint", "--strict", "warn"}, cli.ExitFindings},
		{[]string{"pack", "lint", "bad"}, cli.ExitFindings},
		{[]string{"pack", "lint", "bad", "good"}, cli.ExitFindings},
		{[]string{"pack", "lint", "missing"}, cli.ExitUsage},
		{[]string{"pack", "lint", "notgz.tgz"}, cli.ExitUsage},
		{[]string{"pack", "lint", "--format", "xml", "good"}, cli.ExitUsage},
		{[]string{"pack", "lint", "--no-such-flag"}, cli.ExitUsage},
		{[]string{"pack", "build", "--key", "k.pem", "--unsigned", "good"}, cli.ExitUsage},
		{[]string{"pack", "build", "--key", "k.pem", "good"}, cli.ExitUsage},
		{[]string{"pack", "nope"}, cli.ExitUsage},
		{[]string{"nope"}, cli.ExitUsage},
		{[]string{"pack", "breaking", "good", "--against", "good"}, cli.ExitOK},
		{[]string{"pack", "breaking", "next", "--against", "good"}, cli.ExitFindings}, // same version, other contents
		{[]string{"pack", "breaking", "good"}, cli.ExitUsage},                         // no --against
		{[]string{"pack", "breaking", "good", "--against", "missing"}, cli.ExitUsage},
		{[]string{"pack", "breaking", "good", "--against", "good", "--format", "xml"}, cli.ExitUsage},
		{[]string{"pack", "bump", "auto", "good"}, cli.ExitUsage},  // auto needs --against
		{[]string{"pack", "bump", "0.1.0", "good"}, cli.ExitUsage}, // not above 1.0.0
		{[]string{"pack", "bump", "huge", "good"}, cli.ExitUsage},
		{[]string{"pack", "bump", "patch", "notgz.tgz"}, cli.ExitUsage}, // archives are not edited
		{[]string{"--version"}, cli.ExitOK},
		{[]string{"lint"}, cli.ExitUsage},        // did you mean 'wop pack lint'
		{[]string{"help", "lnt"}, cli.ExitUsage}, // as `wop lnt`, not the root help
		{[]string{"help", "pack", "lnt"}, cli.ExitUsage},
		{[]string{"help", "pack", "lint", "extra"}, cli.ExitUsage},
		{[]string{"help", "pack", "lint"}, cli.ExitOK},
		{[]string{"help", "exit-codes"}, cli.ExitOK},
		{[]string{"pack", "publish", "good", "--key", "k.pem", "--key-id", "k", "--stage", "nogit", "--branch", "b"}, cli.ExitUsage}, // no .git: refused before building
		{[]string{"pack", "publish", "good", "--key", "k.pem", "--key-id", "k", "--stage", "missing", "--branch", "b"}, cli.ExitUsage},
		{[]string{"pack", "lint", "--changed", "notes.txt"}, cli.ExitOK}, // a file in no pack: nothing to lint
		{[]string{"pack", "lint", "--changed", "bad/x.md"}, cli.ExitFindings},
		{[]string{"pack", "lint", "-o", "r.sarif", "missing"}, cli.ExitUsage},
		{[]string{"pack", "lint", "--explain", "ref-mising"}, cli.ExitUsage},
		{[]string{"pack", "verify", "notgz.tgz", "--key", "good/pack.json"}, cli.ExitUsage},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, _, stderr := run(t, dir, tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d; stderr: %s", code, tt.code, stderr)
			}
		})
	}
}

// TestVersionReadOnlyForVersion: the version template, which reads the
// embedded provenance, is built when --version is given, not for every
// command; -v, --version and --version=false behave as cobra's flag.
func TestVersionReadOnlyForVersion(t *testing.T) {
	env := &cli.Env{In: strings.NewReader(""), Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}, Version: "test"}
	if tmpl := NewCmd(env).VersionTemplate(); strings.Contains(tmpl, "spec sources") {
		t.Errorf("the version template was built before --version: %q", tmpl)
	}
	for _, args := range [][]string{{"--version"}, {"-v"}} {
		code, out, _ := run(t, t.TempDir(), args...)
		if code != cli.ExitOK || !strings.HasPrefix(out, "wop test\nspec: ") || !strings.Contains(out, "\nspec sources: openwop/") {
			t.Errorf("%v: exit %d, printed %q", args, code, out)
		}
	}
	if code, out, _ := run(t, t.TempDir(), "--version=false"); code != cli.ExitOK || strings.Contains(out, "spec sources") {
		t.Errorf("--version=false: exit %d, printed %q", code, out)
	}
}
