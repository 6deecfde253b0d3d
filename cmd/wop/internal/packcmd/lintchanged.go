package packcmd

import (
	"cmp"
	"path/filepath"
	"slices"

	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/agf"
	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/lint"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/safefile"
	"github.com/wop-cli/wop/internal/tarball"
)

// changedTargets maps changed files, as pre-commit passes them, to the
// packs that hold them (the nearest directory upward with a pack.json), each
// pack once. A changed .wop.yaml outside any pack stands for every pack
// below it. AgentFormat files outside any pack are returned to be linted on
// their own; any other file outside a pack (a registry checkout's top-level
// schemas/, say) is skipped: nothing lints it.
func changedTargets(env *cli.Env, files []string) (targets []target, agfFiles []string, err error) {
	seen := map[string]bool{}
	add := func(dir string) {
		if !seen[dir] {
			seen[dir] = true
			targets = append(targets, target{path: dir, display: displayRel(env, dir)})
		}
	}
	for _, f := range files {
		abs := env.Abs(f)
		if dir, ok := pack.Owner(abs); ok {
			add(dir)
			continue
		}
		switch base := filepath.Base(abs); {
		case agf.IsFile(base):
			agfFiles = append(agfFiles, filepath.ToSlash(filepath.Clean(f)))
		case base == ".wop.yaml" || base == ".wop.yml":
			below, err := pack.Below(filepath.Dir(abs))
			if err != nil {
				return nil, nil, cli.Usagef("%s: %v", f, withoutPath(err))
			}
			for _, dir := range below {
				add(dir)
			}
		}
	}
	slices.SortFunc(targets, func(a, b target) int { return cmp.Compare(a.path, b.path) })
	return targets, agfFiles, nil
}

// displayRel names a pack directory relative to the working directory, as
// the user would type it.
func displayRel(env *cli.Env, dir string) string {
	if rel, err := filepath.Rel(env.WorkDir, dir); err == nil {
		return rel
	}
	return dir
}

// lintLooseAgentFormat lints AgentFormat files that belong to no pack, with
// the same rules `wop agf lint` applies.
func lintLooseAgentFormat(env *cli.Env, names []string) ([]diag.Diagnostic, error) {
	if len(names) == 0 {
		return nil, nil
	}
	src := agf.Source{
		Read: func(name string) ([]byte, error) {
			return safefile.Read(env.Abs(filepath.FromSlash(name)), safefile.Options{Max: tarball.DefaultLimits.MaxEntry, FollowLinks: true})
		},
		Display: func(name string) string { return name },
	}
	ds, err := lint.AgentFormat(names, src, lint.AgentFormatOptions{})
	if err != nil {
		return nil, cli.Usagef("%v", err)
	}
	return ds, nil
}
