package lintrun

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/wop-cli/wop/internal/pack"
)

// stagedTimeout and stagedMaxOutput bound the git calls: a hook must not
// hang on a stuck git or hold a runaway listing in memory.
const (
	stagedTimeout   = 30 * time.Second
	stagedMaxOutput = 16 << 20
)

// Staged is what the git index removes: pre-commit passes only files that
// still exist, so a staged deletion (or the old name of a rename) never
// reaches a hook, and the pack that referenced the file goes unlinted.
type Staged struct {
	Removed []string // deleted files and renames' old names, absolute
	Added   []string // renames' new names, absolute
	Top     string   // the work tree's top
}

// StagedChanges asks git, in dir's work tree, which files the index deletes
// or renames (`git diff --cached --name-status -M --diff-filter=DR -z`).
func StagedChanges(ctx context.Context, dir string) (Staged, error) {
	ctx, cancel := context.WithTimeout(ctx, stagedTimeout)
	defer cancel()
	top, err := gitOutput(ctx, dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return Staged{}, inputf("--staged-deletions asks git which files the commit deletes or renames: %v", err)
	}
	top = strings.TrimRight(top, "\r\n")
	out, err := gitOutput(ctx, dir, "diff", "--cached", "--name-status", "-M", "--diff-filter=DR", "-z")
	if err != nil {
		return Staged{}, inputf("--staged-deletions: git diff --cached: %v", err)
	}
	s := ParseNameStatus(out)
	s.Top = top
	for i, p := range s.Removed {
		s.Removed[i] = filepath.Join(top, filepath.FromSlash(p))
	}
	for i, p := range s.Added {
		s.Added[i] = filepath.Join(top, filepath.FromSlash(p))
	}
	return s, nil
}

// changedTargets are --changed's packs: those of the files o names and,
// with o.StagedDeletions, of the files the commit deletes or renames away;
// and the files on disk the commit lacks (absent), which lint leaves out:
// removed from git but still on disk (git rm --cached), or never added.
// A pack whose pack.json the commit lacks is no pack.
func changedTargets(ctx context.Context, env *Env, o Options) (targets []Target, looseAGF, absent []string, err error) {
	var staged Staged
	if o.StagedDeletions {
		if staged, err = StagedChanges(ctx, env.WorkDir); err != nil {
			return nil, nil, nil, err
		}
		absent = stillOnDisk(staged.Removed)
		for _, f := range absent {
			fmt.Fprintf(env.ErrOut, "%s: the commit removes it from git, but it is still on disk; linted as the commit has it, without the file\n", env.Rel(f))
		}
	}
	targets, looseAGF, err = ChangedTargets(env, append(slices.Clip(o.Paths), staged.Added...), staged.Removed)
	if err != nil || !o.StagedDeletions || len(targets) == 0 {
		return targets, looseAGF, absent, err
	}
	dirs := make([]string, len(targets))
	for i, t := range targets {
		dirs[i] = t.Path
	}
	untracked, err := untrackedIn(ctx, staged.Top, dirs)
	if err != nil {
		return nil, nil, nil, err
	}
	if len(untracked) > 0 {
		fmt.Fprintf(env.ErrOut, "not in git, so not in the commit, and linted away: %s (git add what a pack needs)\n", listSome(env, untracked))
	}
	absent = append(absent, untracked...)
	targets = slices.DeleteFunc(targets, func(t Target) bool {
		return absentFrom(absent, filepath.Join(t.Path, pack.ManifestName))
	})
	return targets, looseAGF, absent, nil
}

// untrackedIn asks git for the files under dirs it does not track
// (untracked or ignored); a folder none of whose files it tracks is one
// entry, ending in a separator (node_modules/, not its thousands of files).
func untrackedIn(ctx context.Context, top string, dirs []string) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, stagedTimeout)
	defer cancel()
	args := []string{"ls-files", "--others", "--directory", "--no-empty-directory", "-z", "--"}
	for _, d := range dirs {
		if rel, err := filepath.Rel(top, d); err == nil && (rel == "." || filepath.IsLocal(rel)) {
			args = append(args, filepath.ToSlash(rel))
		}
	}
	out, err := gitOutput(ctx, top, args...)
	if err != nil {
		return nil, inputf("--staged-deletions: git ls-files --others: %v", err)
	}
	var paths []string
	for _, p := range strings.Split(strings.TrimSuffix(out, "\x00"), "\x00") {
		if p == "" {
			continue
		}
		abs := filepath.Join(top, filepath.FromSlash(p))
		if strings.HasSuffix(p, "/") {
			abs += string(filepath.Separator)
		}
		paths = append(paths, abs)
	}
	return paths, nil
}

// absentFrom says whether path is one of absent, or inside a folder of it.
func absentFrom(absent []string, path string) bool {
	for _, a := range absent {
		if path == a || strings.HasSuffix(a, string(filepath.Separator)) && strings.HasPrefix(path, a) {
			return true
		}
	}
	return false
}

// listSome names up to five of paths, then how many more.
func listSome(env *Env, paths []string) string {
	var names []string
	for _, p := range paths[:min(len(paths), 5)] {
		name := filepath.ToSlash(env.Rel(p))
		if strings.HasSuffix(p, string(filepath.Separator)) {
			name += "/" // a folder
		}
		names = append(names, name)
	}
	if n := len(paths) - len(names); n > 0 {
		names = append(names, fmt.Sprintf("and %d more", n))
	}
	return strings.Join(names, ", ")
}

// stillOnDisk returns the removed files that are still in the working
// tree (git rm --cached): the hook sees the working tree, where they are,
// while the commit lacks them.
func stillOnDisk(removed []string) []string {
	var out []string
	for _, p := range removed {
		if _, err := os.Lstat(p); err == nil {
			out = append(out, p)
		}
	}
	return out
}

// ParseNameStatus reads `git diff --name-status -z` output: a status, then
// one path (D and the rest) or two (R and C: old, new). Paths stay as git
// printed them, relative to the work tree's top, slash-separated. A
// truncated record is dropped.
func ParseNameStatus(out string) Staged {
	var s Staged
	fields := strings.Split(strings.TrimSuffix(out, "\x00"), "\x00")
	for i := 0; i < len(fields); {
		status := fields[i]
		switch {
		case status == "":
			i++
		case status[0] == 'R' || status[0] == 'C':
			if i+2 >= len(fields) {
				return s
			}
			if status[0] == 'R' {
				s.Removed = append(s.Removed, fields[i+1])
			}
			s.Added = append(s.Added, fields[i+2])
			i += 3
		default:
			if i+1 >= len(fields) {
				return s
			}
			if status[0] == 'D' {
				s.Removed = append(s.Removed, fields[i+1])
			}
			i += 2
		}
	}
	return s
}

// gitOutput runs git in dir and returns its standard output, at most
// stagedMaxOutput bytes; an error carries git's own message.
func gitOutput(ctx context.Context, dir string, args ...string) (string, error) {
	if _, err := exec.LookPath("git"); err != nil {
		return "", errors.New("git is not installed")
	}
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	var stdout, stderr capped
	stdout.limit, stderr.limit = stagedMaxOutput, 4096
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	switch {
	case ctx.Err() != nil:
		return "", errors.New("git did not answer within 30s")
	case err != nil:
		if msg := strings.TrimSpace(stderr.buf.String()); msg != "" {
			return "", errors.New(msg)
		}
		return "", err
	case stdout.over:
		return "", errors.New("git's answer is over 16 MiB")
	}
	return stdout.buf.String(), nil
}

// capped keeps the first limit bytes written and notes the rest.
type capped struct {
	buf   bytes.Buffer
	limit int
	over  bool
}

func (c *capped) Write(p []byte) (int, error) {
	n := len(p)
	if room := c.limit - c.buf.Len(); n > room {
		c.over = true
		p = p[:max(room, 0)]
	}
	c.buf.Write(p)
	return n, nil // the rest is dropped, not refused: git must not block on a full pipe
}
