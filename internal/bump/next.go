package bump

import (
	"fmt"
	"path/filepath"

	"github.com/Masterminds/semver/v3"
	"github.com/wop-cli/wop/internal/atomicfile"
	"github.com/wop-cli/wop/internal/breaking"
)

// Next turns a bump step into the new version: major, minor or patch from
// current; auto, the smallest step res (a comparison with the previous
// release) allows, at least a patch; or an explicit X.Y.Z above current.
// Its errors are the caller's to fix.
func Next(step, current string, res *breaking.Result) (string, error) {
	steps := map[string]breaking.Bump{"major": breaking.Major, "minor": breaking.Minor, "patch": breaking.Patch}
	if b, ok := steps[step]; ok {
		v, err := semver.StrictNewVersion(current)
		if err != nil {
			return "", fmt.Errorf("pack.json version %q is not SemVer: give the new version as X.Y.Z", current)
		}
		next := map[breaking.Bump]semver.Version{breaking.Major: v.IncMajor(), breaking.Minor: v.IncMinor(), breaking.Patch: v.IncPatch()}[b]
		return next.String(), nil
	}
	if step == "auto" {
		next, err := breaking.Next(res.OldVersion, max(res.Needed, breaking.Patch))
		if err != nil {
			return "", fmt.Errorf("previous release: %v", err)
		}
		return next, nil
	}
	v, err := semver.StrictNewVersion(step)
	if err != nil {
		return "", fmt.Errorf("%q: want major, minor, patch, auto or a version X.Y.Z", step)
	}
	if cur, err := semver.StrictNewVersion(current); err == nil && !v.GreaterThan(cur) {
		return "", fmt.Errorf("%s is not above the current version %s", step, current)
	}
	return step, nil
}

// Write replaces each edited file of the pack folder dir atomically,
// keeping its mode: all or nothing, so a read-only file refuses before any
// is rewritten.
func Write(dir string, edits []FileEdit) error {
	for _, e := range edits {
		if err := atomicfile.CheckWritable(filepath.Join(dir, filepath.FromSlash(e.Name))); err != nil {
			return fmt.Errorf("write %s: %w", e.Name, err)
		}
	}
	for _, e := range edits {
		if err := atomicfile.Replace(filepath.Join(dir, filepath.FromSlash(e.Name)), e.New); err != nil {
			return fmt.Errorf("write %s: %w", e.Name, err)
		}
	}
	return nil
}
