package lintrun

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/rogpeppe/go-internal/diff"
	"github.com/wop-cli/wop/internal/atomicfile"
	"github.com/wop-cli/wop/internal/config"
	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/lint"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/safefile"
	"github.com/wop-cli/wop/internal/tarball"
)

// FixMode is what a run does with the fixes rules declare.
type FixMode int

const (
	FixNone  FixMode = iota
	FixWrite         // --fix: rewrite the files, then lint what is left
	FixDiff          // --diff: print the fixes as a unified diff, write nothing, lint the fixed text
)

// applyFixes runs the rules' mechanical fixes on every pack directory
// among the jobs: with write, each changed file is replaced atomically
// (all of a pack's fixes are computed before any is written); without, a
// unified diff goes to Out, nothing is written, and the fixed text is
// returned by absolute path, so the run lints what the fixes leave.
func applyFixes(env *Env, targets []Target, jobs []lint.Job, limits []tarball.Limits, write bool) (map[string][]byte, error) {
	fixed := map[string][]byte{}
	for i, job := range jobs {
		pk, err := pack.Load(job.Path, limits[i])
		if err != nil || pk.Archive != nil {
			continue // load errors are reported by the lint run; archives are built output
		}
		pk.Display = pack.DisplayName(targets[i].Display)
		// Fixes are computed as build judges the pack: an enforced finding
		// .wop.yaml ignores or lowers for lint alone still stops build and
		// publish, whose summary sends the author to --fix for it.
		diags, err := lint.Run(pk, GateBuild.Options(job.Opt))
		if err != nil {
			return nil, err
		}
		fixes, err := lint.Fixes(pk, diags)
		if err != nil {
			return nil, err
		}
		if !write {
			for _, f := range fixes {
				if _, err := env.Out.Write(diff.Diff("a/"+pk.Path(f.Name), f.Old, "b/"+pk.Path(f.Name), f.New)); err != nil {
					return nil, err
				}
				fixed[filepath.Join(pk.Dir, filepath.FromSlash(f.Name))] = f.New
			}
			continue
		}
		if err := writeFixes(pk, fixes); err != nil {
			return nil, err
		}
		for _, f := range fixes {
			fmt.Fprintf(env.ErrOut, "fixed %s: %s\n", pk.Path(f.Name), strings.Join(f.Rules, ", "))
		}
	}
	return fixed, nil
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

// maxConfigFixes bounds the configuration files one run fixes (each fix
// may uncover the next pack's configuration).
const maxConfigFixes = 16

// fixConfigs fixes the "did you mean" mistakes of the configuration files
// that stopped prepare (err), as far as each is Fixable, and prepares
// again with the fixed text: written with FixWrite (an overlaid buffer is
// fixed in the overlay), printed as a diff with FixDiff and read from the
// overlay, so the packs' fixes follow. A configuration with a mistake no
// fix takes stops the run as before.
func fixConfigs(ctx context.Context, env *Env, o Options, p *plan, err error) (*plan, Options, error) {
	for range maxConfigFixes {
		var ce *config.Error
		if !errors.As(err, &ce) {
			return p, o, err
		}
		path := env.Abs(ce.File)
		old, ok := o.Overlay[path]
		if !ok {
			if old, err = safefile.Read(path, safefile.Options{Max: config.MaxSize, FollowLinks: true}); err != nil {
				return nil, o, err
			}
		}
		var fixes []diag.Fix
		for _, pr := range ce.Problems {
			if pr.Fixable {
				fixes = append(fixes, pr.Fix)
			}
		}
		updated, applied, ferr := lint.ApplyFixes(old, fixes)
		if ferr != nil || !slices.Contains(applied, true) {
			return p, o, err
		}
		if o.Fix == FixWrite && !ok {
			if err := atomicfile.Replace(path, updated); err != nil {
				return nil, o, fmt.Errorf("write %s: %w", ce.File, err)
			}
			fmt.Fprintf(env.ErrOut, "fixed %s: %s\n", ce.File, strings.Join(replaced(fixes, applied), ", "))
		} else {
			if o.Fix == FixDiff {
				if _, err := env.Out.Write(diff.Diff("a/"+ce.File, old, "b/"+ce.File, updated)); err != nil {
					return nil, o, err
				}
			}
			o.Overlay = withOverlay(o.Overlay, map[string][]byte{path: updated})
		}
		p, err = prepare(ctx, env, o)
	}
	return p, o, err
}

// replaced names the fixes applied: `"ref-mising" -> "ref-missing"`.
func replaced(fixes []diag.Fix, applied []bool) []string {
	var out []string
	for i, f := range fixes {
		if applied[i] {
			out = append(out, fmt.Sprintf("%q -> %q", f.Old, f.New))
		}
	}
	return out
}
