package lintrun

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/rogpeppe/go-internal/diff"
	"github.com/wop-cli/wop/internal/atomicfile"
	"github.com/wop-cli/wop/internal/lint"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/tarball"
)

// FixMode is what a run does with the fixes rules declare.
type FixMode int

const (
	FixNone  FixMode = iota
	FixWrite         // --fix: rewrite the files, then lint what is left
	FixDiff          // --diff: print the fixes as a unified diff; write and lint nothing
)

// applyFixes runs the rules' mechanical fixes on every pack directory
// among the jobs: with write, each changed file is replaced atomically
// (all of a pack's fixes are computed before any is written); without, a
// unified diff goes to Out and nothing is written.
func applyFixes(env *Env, targets []Target, jobs []lint.Job, limits []tarball.Limits, write bool) error {
	for i, job := range jobs {
		pk, err := pack.Load(job.Path, limits[i])
		if err != nil || pk.Archive != nil {
			continue // load errors are reported by the lint run; archives are built output
		}
		pk.Display = pack.DisplayName(targets[i].Display)
		diags, err := lint.Run(pk, job.Opt)
		if err != nil {
			return err
		}
		fixes, err := lint.Fixes(pk, diags)
		if err != nil {
			return err
		}
		if !write {
			for _, f := range fixes {
				if _, err := env.Out.Write(diff.Diff("a/"+pk.Path(f.Name), f.Old, "b/"+pk.Path(f.Name), f.New)); err != nil {
					return err
				}
			}
			continue
		}
		if err := writeFixes(pk, fixes); err != nil {
			return err
		}
		for _, f := range fixes {
			fmt.Fprintf(env.ErrOut, "fixed %s: %s\n", pk.Path(f.Name), strings.Join(f.Rules, ", "))
		}
	}
	return nil
}

func writeFixes(pk *pack.Pack, fixes []lint.FileFix) error {
	// All or nothing: a read-only file refuses before any is rewritten.
	for _, f := range fixes {
		if err := atomicfile.CheckWritable(filepath.Join(pk.Dir, filepath.FromSlash(f.Name))); err != nil {
			return fmt.Errorf("write %s: %w", pk.Path(f.Name), err)
		}
	}
	for _, f := range fixes {
		if err := atomicfile.Replace(filepath.Join(pk.Dir, filepath.FromSlash(f.Name)), f.New); err != nil {
			return fmt.Errorf("write %s: %w", pk.Path(f.Name), err)
		}
	}
	return nil
}
