package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// fakeGo is a `go` that records its arguments and, for `build -o OUT`,
// writes at OUT a wop that prints what it was asked.
const fakeGo = `#!/bin/sh
echo "$PWD $*" >> "$GO_LOG"
while [ $# -gt 0 ]; do
  if [ "$1" = -o ]; then out=$2; fi
  shift
done
printf '#!/bin/sh\necho "wop $*"\n' > "$out"
chmod +x "$out"
`

// TestPreCommitScriptBuildsOnlyWop: the wop-pack-lint hook's script builds
// cmd/wop alone, from the hook repository's root, once; later runs reuse
// the binary; it lints the changed files with --changed and -- before them;
// without Go it stops with exit 2 and says what to do.
func TestPreCommitScriptBuildsOnlyWop(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the hook script is POSIX sh")
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	tmp := t.TempDir()
	repo := filepath.Join(tmp, "repo")
	script, err := os.ReadFile("../../hooks/wop-pack-lint")
	if err != nil {
		t.Fatal(err)
	}
	must(t, os.MkdirAll(filepath.Join(repo, "hooks"), 0o755))
	must(t, os.WriteFile(filepath.Join(repo, "hooks", "wop-pack-lint"), script, 0o755))
	bin := filepath.Join(tmp, "bin")
	must(t, os.MkdirAll(bin, 0o755))
	must(t, os.WriteFile(filepath.Join(bin, "go"), []byte(fakeGo), 0o755))
	log := filepath.Join(tmp, "go.log")
	user := filepath.Join(tmp, "user") // the pack repository pre-commit runs the hook in
	must(t, os.MkdirAll(user, 0o755))
	run := func(path string, args ...string) (string, string, error) {
		cmd := exec.Command(sh, append([]string{filepath.Join(repo, "hooks", "wop-pack-lint")}, args...)...)
		cmd.Dir = user
		cmd.Env = []string{"PATH=" + path, "GO_LOG=" + log, "HOME=" + tmp, "PRE_COMMIT=1"} // as pre-commit runs it: /dev/tty is tried, and may be absent
		var out, errOut strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err := cmd.Run()
		return out.String(), errOut.String(), err
	}
	sysPath := "/usr/bin:/bin"

	out, errOut, err := run(bin+":"+sysPath, "--write-baseline=x.agf.yaml", "packs/a/pack.json")
	if err != nil {
		t.Fatalf("first run: %v\n%s", err, errOut)
	}
	if want := "wop " + goHookArgs(t) + " --write-baseline=x.agf.yaml packs/a/pack.json\n"; out != want {
		t.Errorf("the hook ran %q, want %q (the wop-pack-lint-golang hook's arguments)", out, want)
	}
	if !strings.Contains(errOut, "building wop once") || !strings.Contains(errOut, "minute") {
		t.Errorf("the first run said %q on stderr; want that it builds wop once and how long that takes", errOut)
	}
	calls, _ := os.ReadFile(log)
	want := repo + " build -trimpath -o " + filepath.Join(repo, ".pre-commit-bin", "wop.tmp.")
	if lines := strings.Split(strings.TrimSpace(string(calls)), "\n"); len(lines) != 1 || !strings.HasPrefix(lines[0], want) || !strings.HasSuffix(lines[0], " ./cmd/wop") {
		t.Errorf("go was asked %q; want one `go build ... ./cmd/wop` from the repository root", calls)
	}

	if _, errOut, err := run(bin+":"+sysPath, "b.md"); err != nil || strings.Contains(errOut, "building") {
		t.Fatalf("second run: %v\n%s", err, errOut)
	}
	if again, _ := os.ReadFile(log); string(again) != string(calls) {
		t.Errorf("the second run built again: %q", again)
	}

	must(t, os.RemoveAll(filepath.Join(repo, ".pre-commit-bin")))
	_, errOut, err = run(sysPath+":"+filepath.Join(tmp, "nowhere"), "c.md")
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(errOut, "go is not on PATH") || !strings.Contains(errOut, "wop-pack-lint-golang") {
		if _, goOnSystem := exec.LookPath("/usr/bin/go"); goOnSystem == nil {
			t.Skip("a go in /usr/bin: cannot take Go off PATH")
		}
		t.Errorf("without go: %v, %q; want exit 2 naming the fix", err, errOut)
	}
}

// goHookArgs are the wop arguments of the wop-pack-lint-golang hook in
// .pre-commit-hooks.yaml, which every hook passes (the script's exec line
// is held to them above); they include --staged-deletions, and the hooks
// run always: pre-commit passes only files that exist and skips a hook that
// has none, so a commit that only deletes a referenced file would not be
// linted otherwise.
func goHookArgs(t *testing.T) string {
	t.Helper()
	raw, err := os.ReadFile("../../.pre-commit-hooks.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var hooks []map[string]any
	must(t, yaml.Unmarshal(raw, &hooks))
	args := ""
	for _, h := range hooks {
		if h["always_run"] != true || h["pass_filenames"] != true {
			t.Errorf("hook %v: want always_run: true and pass_filenames: true", h["id"])
		}
		if h["language"] == "golang" {
			args, _ = strings.CutPrefix(h["entry"].(string), "wop ")
		}
	}
	if !strings.Contains(args, "--staged-deletions") || !strings.HasSuffix(args, " --") {
		t.Fatalf("the golang hook passes %q; want --staged-deletions and a final --", args)
	}
	return args
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
