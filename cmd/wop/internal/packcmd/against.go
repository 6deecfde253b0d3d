package packcmd

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/scratch"
	"github.com/wop-cli/wop/internal/tarball"
)

// errNoPrevious means --against names no earlier release: a first release.
var errNoPrevious = errors.New("no previous release")

// previousRelease loads the release --against names, as a pack: a .tgz, a
// directory, git:REF (the pack's directory at that commit of its
// repository, read with `git archive`, no clone), NAME@VERSION or registry
// (fetched from $WOP_REGISTRY, see registryRelease). The returned cleanup
// removes any temporary file.
func previousRelease(ctx context.Context, env *cli.Env, ref, packPath string, lim tarball.Limits) (*pack.Pack, func(), error) {
	noop := func() {}
	if rev, ok := strings.CutPrefix(ref, "git:"); ok {
		return gitRelease(ctx, rev, packDirOf(packPath), lim)
	}
	if ref == "registry" || strings.Contains(ref, "@") && !fileExists(env.Abs(ref)) {
		return registryRelease(ctx, env, ref, packPath, lim)
	}
	pk, err := pack.Load(env.Abs(ref), lim)
	if err != nil {
		return nil, noop, cli.Usagef("--against %s: %v", ref, withoutPath(err))
	}
	pk.Display = pack.DisplayName(ref)
	return pk, noop, nil
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// gitRelease exports the pack directory as it was at rev into a temporary
// .tgz. A rev at which the directory (or its pack.json) does not exist is a
// first release.
func gitRelease(ctx context.Context, rev, packDir string, lim tarball.Limits) (*pack.Pack, func(), error) {
	noop := func() {}
	if rev == "" || strings.HasPrefix(rev, "-") {
		return nil, noop, cli.Usagef("--against git:%s: want git:REF, e.g. git:v1.2.0 or git:HEAD~1", rev)
	}
	prefix, err := git(ctx, packDir, "rev-parse", "--show-prefix")
	if err != nil {
		return nil, noop, cli.Usagef("--against git:%s: %s is not in a git repository: %v", rev, packDir, err)
	}
	top, err := git(ctx, packDir, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, noop, cli.Usagef("--against git:%s: %v", rev, err)
	}
	if _, err := git(ctx, packDir, "rev-parse", "--verify", "--quiet", rev+"^{commit}"); err != nil {
		return nil, noop, cli.Usagef("--against git:%s: no such commit, tag or branch", rev)
	}
	tree := rev + ":" + strings.TrimSpace(prefix)
	if _, err := git(ctx, packDir, "cat-file", "-e", tree+pack.ManifestName); err != nil {
		return nil, noop, errNoPrevious
	}
	held, tmp, err := againstTemp()
	if err != nil {
		return nil, noop, err
	}
	cleanup := func() { held.Remove() }
	cmd := exec.CommandContext(ctx, "git", "archive", "--format=tar.gz", tree)
	cmd.Dir = strings.TrimSpace(top) // git archive refuses some subdirectories (untracked cwd)
	cmd.Stdout = tmp
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		cleanup()
		return nil, noop, fmt.Errorf("git archive %s: %v: %s", tree, err, strings.TrimSpace(stderr.String()))
	}
	pk, err := pack.Load(tmp.Name(), lim)
	if err != nil {
		cleanup()
		return nil, noop, fmt.Errorf("git:%s: %w", rev, err)
	}
	pk.Display = "git:" + rev
	return pk, cleanup, nil
}

// againstTemp makes the temporary file a previous release is exported to,
// locked while this run uses it, after removing those a killed wop left.
func againstTemp() (*scratch.Temp, *os.File, error) {
	scratch.Sweep("wop-against-")
	return scratch.File("wop-against-*.tgz")
}

func git(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return "", errors.New(msg)
		}
		return "", err
	}
	return string(out), nil
}

// packDirOf is the directory a pack argument lives in.
func packDirOf(p string) string {
	if info, err := os.Stat(p); err == nil && info.IsDir() {
		return p
	}
	return filepath.Dir(p)
}
