package npm_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// TestPreCommitHookRunsTheBinary: hooks/wop-pack-lint-npm, the npm hook's
// entry, runs the platform package's wop from pre-commit's node
// environment ($NODE_PATH), nested under @wop-cli/wop as a global install
// puts it or hoisted, with the hooks' arguments; without a platform package,
// or outside pre-commit, it runs the wop on PATH (the shim, which says what
// is missing).
func TestPreCommitHookRunsTheBinary(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the hook script is POSIX sh")
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	hook, err := filepath.Abs("../hooks/wop-pack-lint-npm")
	must(t, err)
	fake := func(path, who string) {
		t.Helper()
		must(t, os.MkdirAll(filepath.Dir(path), 0o755))
		must(t, os.WriteFile(path, []byte("#!/bin/sh\necho \""+who+" $*\"\n"), 0o755))
	}
	tests := []struct {
		name   string
		binary string // where the platform package's wop is, under NODE_PATH; "" for none
		noPath bool   // NODE_PATH unset
		want   string
	}{
		{"global install", "@wop-cli/wop/node_modules/@wop-cli/wop-linux-x64/bin/wop", false, "platform"},
		{"hoisted", "@wop-cli/wop-darwin-arm64/bin/wop", false, "platform"},
		{"no platform package", "", false, "shim"},
		{"outside pre-commit", "", true, "shim"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tmp := t.TempDir()
			nodePath := filepath.Join(tmp, "lib", "node_modules")
			must(t, os.MkdirAll(filepath.Join(nodePath, "@wop-cli", "wop", "bin"), 0o755))
			if tt.binary != "" {
				fake(filepath.Join(nodePath, tt.binary), "platform")
			}
			fake(filepath.Join(tmp, "bin", "wop"), "shim")
			env := []string{"PATH=" + filepath.Join(tmp, "bin") + ":/usr/bin:/bin"}
			if !tt.noPath {
				env = append(env, "NODE_PATH="+nodePath)
			}
			cmd := exec.Command(sh, hook, "packs/a/pack.json", "--write-baseline=x.agf.yaml")
			cmd.Env = env
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			want := tt.want + " pack lint --changed --staged-deletions -- packs/a/pack.json --write-baseline=x.agf.yaml\n"
			if string(out) != want {
				t.Errorf("the hook ran %q, want %q", out, want)
			}
		})
	}
}
