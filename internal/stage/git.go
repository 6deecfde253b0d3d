package stage

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// git runs git in the checkout and returns its trimmed output.
func git(ctx context.Context, root string, environ []string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir, cmd.Env = root, environ
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(string(out)))
	}
	return strings.TrimSpace(string(out)), nil
}

// CheckBranch says whether a stage can commit on a new branch in the
// checkout, before anything is built or generated: git runs, the checkout
// is the top of a git work tree with a commit, and branch is a valid name
// no branch has yet. A checkout inside another repository (a home folder
// under version control, say) is refused: the commit would land there.
func (c *Checkout) CheckBranch(ctx context.Context, environ []string, branch string) error {
	if _, err := exec.LookPath("git"); err != nil {
		return errors.New("--branch commits with git, which is not installed: install it, or drop --branch and commit yourself")
	}
	top, err := git(ctx, c.Root, environ, "rev-parse", "--show-toplevel")
	if err != nil || !sameDir(top, c.Root) {
		return fmt.Errorf("%s is not a git clone (no .git at its top): --branch commits there; clone the registry's repository with git, or drop --branch", c.Root)
	}
	if _, err := git(ctx, c.Root, environ, "rev-parse", "--verify", "-q", "HEAD^{commit}"); err != nil {
		return fmt.Errorf("%s has no commit yet: --branch starts the new branch from HEAD; commit the registry's files first", c.Root)
	}
	if _, err := git(ctx, c.Root, environ, "check-ref-format", "--branch", branch); err != nil {
		return fmt.Errorf("--branch %q is not a valid git branch name", branch)
	}
	if _, err := git(ctx, c.Root, environ, "rev-parse", "--verify", "-q", "refs/heads/"+branch); err == nil {
		return fmt.Errorf("branch %s already exists in %s: pick another name, or delete it (git -C %s branch -D %s)", branch, c.Root, c.Root, branch)
	}
	return nil
}

// sameDir reports whether two paths name one directory (git prints its
// top level with symlinks resolved).
func sameDir(a, b string) bool {
	ia, errA := os.Stat(a)
	ib, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(ia, ib)
}

// commitOnBranch creates branch from the checkout's HEAD, switches to it,
// and commits exactly the edited paths. It never pushes. On failure the
// checkout is back on its branch and the new branch is gone; the caller
// restores the files.
func commitOnBranch(ctx context.Context, root string, environ []string, branch, message string, edits []Edit) (err error) {
	prev, err := git(ctx, root, environ, "rev-parse", "--abbrev-ref", "HEAD")
	if err != nil {
		return err
	}
	if _, err := git(ctx, root, environ, "switch", "-c", branch); err != nil {
		return err
	}
	defer func() {
		if err == nil {
			return
		}
		// Put back what the failed commit staged, leave the branch, drop it.
		_, _ = git(ctx, root, environ, "reset", "-q")
		_, _ = git(ctx, root, environ, "switch", "-q", prev)
		_, _ = git(ctx, root, environ, "branch", "-q", "-D", branch)
	}()
	args := []string{"add", "-A", "--"}
	for _, e := range edits {
		args = append(args, e.Path)
	}
	if _, err := git(ctx, root, environ, args...); err != nil {
		return err
	}
	_, err = git(ctx, root, environ, "commit", "-q", "-m", message)
	return err
}

// GitSteps are the commands that turn a staged checkout into a pull
// request, for a stage run without --branch.
func GitSteps(checkout, branch, message string, edits []Edit) string {
	var b strings.Builder
	fmt.Fprintf(&b, "next, in %s:\n  git switch -c %s\n  git add -A --", checkout, branch)
	for _, e := range edits {
		fmt.Fprintf(&b, " \\\n      %s", e.Path)
	}
	fmt.Fprintf(&b, "\n  git commit -m %q\n  git push -u origin %s\nthen open a pull request for the branch.\n", message, branch)
	return b.String()
}
