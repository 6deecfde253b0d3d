package stage

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckBranch: what --branch needs is checked before anything is
// built: a git clone at the checkout's top, with a commit, and a new,
// valid branch name.
func TestCheckBranch(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("needs git")
	}
	env := append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t",
		"GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	gitIn := func(dir string, args ...string) {
		t.Helper()
		if _, err := git(t.Context(), dir, env, args...); err != nil {
			t.Fatal(err)
		}
	}
	mkdir := func(parts ...string) string {
		dir := filepath.Join(parts...)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	root := t.TempDir()
	plain := mkdir(root, "plain")
	empty := mkdir(root, "empty")
	gitIn(empty, "init", "-q", "-b", "main")
	clone := mkdir(root, "clone")
	gitIn(clone, "init", "-q", "-b", "main")
	gitIn(clone, "commit", "-q", "--allow-empty", "-m", "base")
	gitIn(clone, "branch", "taken")
	inside := mkdir(clone, "sub") // a folder of another repository

	tests := []struct{ name, dir, branch, want string }{
		{"no .git", plain, "b", "is not a git clone (no .git at its top)"},
		{"inside another repository", inside, "b", "is not a git clone (no .git at its top)"},
		{"no commit", empty, "b", "has no commit yet"},
		{"bad name", clone, "a..b", `--branch "a..b" is not a valid git branch name`},
		{"existing branch", clone, "taken", "branch taken already exists"},
		{"ok", clone, "publish/new", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := (&Checkout{Root: tt.dir}).CheckBranch(t.Context(), env, tt.branch)
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("err = %v, want none", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Fatalf("err = %v, want %q", err, tt.want)
			}
		})
	}
}
