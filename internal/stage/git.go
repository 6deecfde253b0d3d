package stage

import (
	"context"
	"fmt"
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
