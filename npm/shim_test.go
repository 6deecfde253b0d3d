// Package npm_test tests wop's npm packages (npm/README.md): the shim
// (npm/wop/bin/wop) against a stand-in wop, the packages npm/build.js writes
// from a build for this machine, and an install from a verdaccio registry on
// loopback. Each test skips, saying why, where node, npm or verdaccio is
// absent; there is no Go package here, only tests.
package npm_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// fakeEnv, when set, makes the test binary act as wop (fakeWop): the shim
// tests run it as the platform package's binary.
const fakeEnv = "WOP_NPM_TEST_FAKE"

func TestMain(m *testing.M) {
	if os.Getenv(fakeEnv) != "" {
		os.Exit(fakeWop(os.Args[1:]))
	}
	os.Exit(m.Run())
}

// fakeWop prints its arguments as JSON, then obeys the first one: "cat"
// copies stdin to stdout, "stderr" writes to stderr, "exit N" exits N,
// "wait" writes its pid to the file $WOP_NPM_TEST_PIDFILE and waits for a
// signal (waitForSignal), "kill" ends itself by a signal (killSelf).
func fakeWop(args []string) int {
	raw, _ := json.Marshal(args)
	fmt.Printf("args %s\n", raw)
	if len(args) == 0 {
		return 0
	}
	switch args[0] {
	case "cat":
		io.Copy(os.Stdout, os.Stdin)
	case "stderr":
		fmt.Fprintln(os.Stderr, "to stderr")
	case "invoked":
		fmt.Printf("WOP_INVOKED_AS=%s\n", os.Getenv("WOP_INVOKED_AS"))
	case "exit":
		n, _ := strconv.Atoi(args[1])
		return n
	case "wait":
		return waitForSignal(os.Getenv("WOP_NPM_TEST_PIDFILE"))
	case "kill":
		return killSelf()
	}
	return 0
}

// host is this machine's key in the shim's table ("linux x64"), and the
// table itself, both as node sees them.
type host struct {
	Key       string
	Platforms map[string]struct{ Pkg, Goos, Goarch string }
}

func (h host) pkg() string { return h.Platforms[h.Key].Pkg }

// needNode skips the test where node is not on PATH, and reads the shim's
// platform table through node.
func needNode(t *testing.T) host {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not on PATH: the npm packages are not tested here")
	}
	script := `const {PLATFORMS} = require("./wop/bin/wop"); console.log(JSON.stringify({Key: process.platform + " " + process.arch, Platforms: PLATFORMS}))`
	out, err := exec.Command(node, "-e", script).Output()
	if err != nil {
		t.Fatalf("node reading the shim's table: %v", err)
	}
	var h host
	if err := json.Unmarshal(out, &h); err != nil {
		t.Fatal(err)
	}
	if _, ok := h.Platforms[h.Key]; !ok {
		t.Skipf("wop has no npm package for %s", h.Key)
	}
	return h
}

// shimInstall lays out what npm installs: node_modules/@wop-cli/wop with
// the shim and, unless withPlatform is false, the platform package holding
// this test binary as wop. It returns the shim's path.
func shimInstall(t *testing.T, h host, withPlatform bool) string {
	t.Helper()
	nm := filepath.Join(t.TempDir(), "node_modules")
	main := filepath.Join(nm, "@wop-cli", "wop")
	must(t, os.MkdirAll(filepath.Join(main, "bin"), 0o755))
	shim, err := os.ReadFile("wop/bin/wop")
	must(t, err)
	must(t, os.WriteFile(filepath.Join(main, "bin", "wop"), shim, 0o755))
	must(t, os.WriteFile(filepath.Join(main, "package.json"), []byte(`{"name": "@wop-cli/wop", "version": "1.2.3"}`), 0o644))
	if withPlatform {
		bin := filepath.Join(nm, filepath.FromSlash(h.pkg()), "bin")
		must(t, os.MkdirAll(bin, 0o755))
		self, err := os.Executable()
		must(t, err)
		exe := ""
		if strings.HasPrefix(h.Key, "win32") {
			exe = ".exe"
		}
		copyFile(t, self, filepath.Join(bin, "wop"+exe), 0o755)
	}
	return filepath.Join(main, "bin", "wop")
}

// shimCmd runs the shim with node, the stand-in wop answering.
func shimCmd(shim string, args ...string) *exec.Cmd {
	cmd := exec.Command("node", append([]string{shim}, args...)...)
	cmd.Env = append(os.Environ(), fakeEnv+"=1")
	return cmd
}

func exitCode(t *testing.T, err error) int {
	t.Helper()
	if err == nil {
		return 0
	}
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	t.Fatalf("running the shim: %v", err)
	return -1
}

// TestShimPassesThrough: arguments reach wop unchanged (spaces, an empty
// one, a leading --, non-ASCII), stdin reaches it and its stdout and stderr
// reach the caller apart, and the shim exits with wop's status, each of the
// documented ones.
func TestShimPassesThrough(t *testing.T) {
	h := needNode(t)
	shim := shimInstall(t, h, true)

	args := []string{"pack", "lint", "--", "a b.json", "", "--write-baseline=x.agf.yaml", "élan"}
	out, err := shimCmd(shim, args...).Output()
	if exitCode(t, err) != 0 {
		t.Fatalf("shim: %v", err)
	}
	raw, _ := json.Marshal(args)
	if want := "args " + string(raw) + "\n"; string(out) != want {
		t.Errorf("wop got %q, want %q", out, want)
	}

	cmd := shimCmd(shim, "cat")
	cmd.Stdin = strings.NewReader("from stdin\n")
	out, err = cmd.Output()
	if exitCode(t, err) != 0 || !strings.HasSuffix(string(out), "\nfrom stdin\n") {
		t.Errorf("stdin did not reach wop's stdout: %q, %v", out, err)
	}

	cmd = shimCmd(shim, "stderr")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if exitCode(t, cmd.Run()) != 0 || stderr.String() != "to stderr\n" || strings.Contains(stdout.String(), "to stderr") {
		t.Errorf("stderr: %q, stdout: %q", stderr.String(), stdout.String())
	}

	for _, code := range []int{0, 1, 2, 3, 4, 5, 70, 130} {
		err := shimCmd(shim, "exit", strconv.Itoa(code)).Run()
		if got := exitCode(t, err); got != code {
			t.Errorf("wop exited %d, the shim %d", code, got)
		}
	}
}

// TestShimMissingPlatformPackage: without the platform package (npm
// install --omit=optional) the shim exits 2 naming the package and the
// commands that install it; on a platform with no package it names the
// platform and the go install that works instead.
func TestShimMissingPlatformPackage(t *testing.T) {
	h := needNode(t)
	shim := shimInstall(t, h, false)
	var stderr bytes.Buffer
	cmd := shimCmd(shim, "pack", "lint")
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if got := exitCode(t, err); got != 2 {
		t.Errorf("exit %d, want 2", got)
	}
	msg := stderr.String()
	for _, want := range []string{h.pkg() + ", which holds wop for " + h.Key + ", is not installed", "--omit=optional", "npm install --include=optional", "npm install -D -E " + h.pkg() + "@1.2.3"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the error does not say %q:\n%s", want, msg)
		}
	}
	if len(out) != 0 {
		t.Errorf("stdout: %q", out)
	}

	script := `try { require(process.argv[1]).binaryPath("freebsd", "riscv64", require.resolve) } catch (e) { console.log(e.message) }`
	out, err = exec.Command("node", "-e", script, shim).Output()
	must(t, err)
	for _, want := range []string{"no npm package for freebsd riscv64", "linux x64", "go install github.com/wop-cli/wop/cmd/wop@v1.2.3"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the unsupported-platform error does not say %q: %s", want, out)
		}
	}
}

// TestShimSetsInvokedAs: the shim tells wop the command that reaches it
// (WOP_INVOKED_AS), so hints say "npx wop ..." to an npm user: inside the
// project that installs it "npx wop", from npx's cache the scoped package
// at its version (plain "npx wop" would fetch the unrelated package
// "wop"), elsewhere "wop"; a value already set is kept.
func TestShimSetsInvokedAs(t *testing.T) {
	h := needNode(t)
	shim := shimInstall(t, h, true)
	project := filepath.Dir(filepath.Dir(filepath.Dir(filepath.Dir(filepath.Dir(shim)))))
	sub := filepath.Join(project, "packs")
	must(t, os.MkdirAll(sub, 0o755))
	for _, tt := range []struct {
		name, dir, preset, want string
	}{
		{"project root", project, "", "npx wop"},
		{"below the project", sub, "", "npx wop"},
		{"outside the project", t.TempDir(), "", "wop"},
		{"already set", project, "pnpm exec wop", "pnpm exec wop"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cmd := shimCmd(shim, "invoked")
			cmd.Dir = tt.dir
			cmd.Env = append(cmd.Env, "WOP_INVOKED_AS="+tt.preset)
			out, err := cmd.Output()
			if exitCode(t, err) != 0 {
				t.Fatal(err)
			}
			if want := "WOP_INVOKED_AS=" + tt.want + "\n"; !strings.HasSuffix(string(out), want) {
				t.Errorf("wop got %q, want %q", out, want)
			}
		})
	}

	script := `const {invokedAs} = require(process.argv[1]); console.log(invokedAs(process.argv[2], "/home/u/proj", "1.2.3"))`
	npxDir := filepath.Join(string(filepath.Separator)+"home", "u", ".npm", "_npx", "0123abcd", "node_modules", "@wop-cli", "wop", "bin")
	out, err := exec.Command("node", "-e", script, shim, npxDir).Output()
	must(t, err)
	if got := strings.TrimSpace(string(out)); got != "npx @wop-cli/wop@1.2.3" {
		t.Errorf("from npx's cache: %q, want npx @wop-cli/wop@1.2.3", got)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func copyFile(t *testing.T, src, dst string, mode os.FileMode) {
	t.Helper()
	data, err := os.ReadFile(src)
	must(t, err)
	must(t, os.WriteFile(dst, data, mode))
}
