package release

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/scratch"
	"github.com/wop-cli/wop/internal/tarball"
)

// fromGit exports the pack directory as it was at rev into a temporary
// .tgz. A rev at which the directory (or its pack.json) does not exist is a
// first release.
func fromGit(ctx context.Context, rev, packDir string, lim tarball.Limits) (*pack.Pack, func(), error) {
	noop := func() {}
	if rev == "" || strings.HasPrefix(rev, "-") {
		return nil, noop, inputErrorf("--against git:%s: want git:REF, e.g. git:v1.2.0 or git:HEAD~1", rev)
	}
	tree, top, err := gitTree(ctx, rev, packDir)
	if err != nil {
		return nil, noop, err
	}
	held, tmp, err := tempArchive()
	if err != nil {
		return nil, noop, err
	}
	cleanup := func() { held.Remove() }
	cmd := exec.CommandContext(ctx, "git", "archive", "--format=tar.gz", tree)
	cmd.Dir = top // git archive refuses some subdirectories (untracked cwd)
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

// gitTree is the tree-ish of packDir at rev (REV:path/) and the top of its
// repository; ErrNoPrevious when the pack did not exist at rev.
func gitTree(ctx context.Context, rev, packDir string) (tree, top string, err error) {
	prefix, err := git(ctx, packDir, "rev-parse", "--show-prefix")
	if err != nil {
		return "", "", inputErrorf("--against git:%s: %s is not in a git repository: %v", rev, packDir, err)
	}
	top, err = git(ctx, packDir, "rev-parse", "--show-toplevel")
	if err != nil {
		return "", "", inputErrorf("--against git:%s: %v", rev, err)
	}
	if _, err := git(ctx, packDir, "rev-parse", "--verify", "--quiet", rev+"^{commit}"); err != nil {
		return "", "", inputErrorf("--against git:%s: no such commit, tag or branch", rev)
	}
	tree = rev + ":" + strings.TrimSpace(prefix)
	if _, err := git(ctx, packDir, "cat-file", "-e", tree+pack.ManifestName); err != nil {
		return "", "", ErrNoPrevious
	}
	return tree, strings.TrimSpace(top), nil
}

// tempArchive makes the temporary file a previous release is exported to,
// locked while this run uses it, after removing those a killed wop left.
func tempArchive() (*scratch.Temp, *os.File, error) {
	scratch.Sweep("wop-against-")
	return scratch.File("wop-against-*.tgz")
}

// loadTemp loads an archive held in memory from a temporary file (a pack
// reads its archive lazily); the returned func removes the file.
func loadTemp(tgz []byte, lim tarball.Limits) (*pack.Pack, func(), error) {
	noop := func() {}
	held, tmp, err := tempArchive()
	if err != nil {
		return nil, noop, err
	}
	cleanup := func() { held.Remove() }
	_, err = tmp.Write(tgz)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		cleanup()
		return nil, noop, err
	}
	pk, err := pack.Load(tmp.Name(), lim)
	if err != nil {
		cleanup()
		return nil, noop, err
	}
	return pk, cleanup, nil
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
