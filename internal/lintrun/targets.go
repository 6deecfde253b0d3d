package lintrun

import (
	"cmp"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/wop-cli/wop/internal/agf"
	"github.com/wop-cli/wop/internal/catalog"
	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/lint"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/safefile"
	"github.com/wop-cli/wop/internal/tarball"
)

// Target is one pack to lint: where it is and how findings name it.
type Target struct{ Path, Display string }

// ExpandTargets turns path arguments into the packs they hold: a pack
// directory, a pack.json, a .tgz, or a folder of packs; a registry
// checkout's root stands for its packs/, and a directory inside a pack that
// holds none (prompts/) for the pack around it.
func ExpandTargets(env *Env, args []string) ([]Target, error) {
	var out []Target
	for _, arg := range args {
		abs := env.Abs(arg)
		found, err := pack.Discover(abs)
		if errors.Is(err, pack.ErrNoManifest) && catalog.IsCheckout(abs) {
			found, err = pack.Discover(filepath.Join(abs, "packs")) // what its maintainers lint at its root
		}
		if errors.Is(err, pack.ErrNoManifest) {
			if dir, ok := enclosingPack(abs); ok { // run inside a pack's prompts/, as git finds its repository
				found, err = []string{dir}, nil
			}
		}
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, inputf("%s: no such file or directory", arg)
			}
			return nil, inputf("%s: %v", arg, WithoutPath(err))
		}
		for _, f := range found {
			rel, _ := filepath.Rel(abs, f)
			out = append(out, Target{Path: f, Display: filepath.Join(arg, rel)})
		}
	}
	return out, nil
}

// enclosingPack finds the pack a directory without packs is inside: the
// nearest ancestor with a pack.json. The walk stops at a repository's root
// (a directory holding .git), a registry checkout's root and the filesystem
// root: a pack outside the user's repository is not theirs to lint, and a
// checkout's top-level folders (schemas/, registry/) belong to no pack.
func enclosingPack(dir string) (string, bool) {
	for {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil || catalog.IsCheckout(dir) {
			return "", false
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
		if info, err := os.Stat(filepath.Join(dir, pack.ManifestName)); err == nil && info.Mode().IsRegular() {
			return dir, true
		}
	}
}

// ChangedTargets maps changed files, as pre-commit passes them, to the
// packs that hold them (the nearest directory upward with a pack.json), each
// pack once. A changed .wop.yaml outside any pack stands for every pack
// below it. AgentFormat files outside any pack are returned to be linted on
// their own; any other file outside a pack (a registry checkout's top-level
// schemas/, say) is skipped: nothing lints it. removed are files the change
// deletes (absolute): their packs are linted too (a reference to a deleted
// file is ref-missing), and a removed file in no pack is skipped.
func ChangedTargets(env *Env, files, removed []string) (targets []Target, agfFiles []string, err error) {
	seen := map[string]bool{}
	add := func(dir string) {
		if !seen[dir] {
			seen[dir] = true
			targets = append(targets, Target{Path: dir, Display: DisplayRel(env, dir)})
		}
	}
	byPath := func(f string, gone bool) error {
		abs := env.Abs(f)
		if dir, ok := pack.Owner(abs); ok {
			add(dir)
			return nil
		}
		switch base := filepath.Base(abs); {
		case agf.IsFile(base) && !gone:
			if name := filepath.ToSlash(DisplayRel(env, abs)); !seen[abs] {
				seen[abs] = true // a rename's new name may be passed too
				agfFiles = append(agfFiles, name)
			}
		case base == ".wop.yaml" || base == ".wop.yml":
			below, err := pack.Below(filepath.Dir(abs))
			if err != nil && !(gone && errors.Is(err, fs.ErrNotExist)) {
				return inputf("%s: %v", f, WithoutPath(err))
			}
			for _, dir := range below {
				add(dir)
			}
		}
		return nil
	}
	for _, f := range files {
		if err := byPath(f, false); err != nil {
			return nil, nil, err
		}
	}
	for _, f := range removed {
		if err := byPath(f, true); err != nil {
			return nil, nil, err
		}
	}
	slices.SortFunc(targets, func(a, b Target) int { return cmp.Compare(a.Path, b.Path) })
	return targets, agfFiles, nil
}

// DisplayRel names a pack directory relative to the working directory, as
// the user would type it.
func DisplayRel(env *Env, dir string) string {
	if rel, err := filepath.Rel(env.WorkDir, dir); err == nil {
		return rel
	}
	return dir
}

// lintLooseAgentFormat lints AgentFormat files that belong to no pack, with
// the same rules `wop agf lint` applies; overlay stands for files on disk.
func lintLooseAgentFormat(env *Env, names []string, overlay map[string][]byte) ([]diag.Diagnostic, error) {
	if len(names) == 0 {
		return nil, nil
	}
	src := agf.Source{
		Read: func(name string) ([]byte, error) {
			abs := env.Abs(filepath.FromSlash(name))
			if data, ok := overlay[abs]; ok {
				if int64(len(data)) > tarball.DefaultLimits.MaxEntry {
					return nil, &safefile.TooLargeError{Name: name, Size: int64(len(data)), Max: tarball.DefaultLimits.MaxEntry}
				}
				return data, nil
			}
			return safefile.Read(abs, safefile.Options{Max: tarball.DefaultLimits.MaxEntry, FollowLinks: true})
		},
		Display: func(name string) string { return name },
	}
	ds, err := lint.AgentFormat(names, src, lint.AgentFormatOptions{})
	if err != nil {
		return nil, inputf("%v", err)
	}
	return ds, nil
}
