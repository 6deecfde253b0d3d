// Package releasecheck compares a pack with its previous release, as
// `wop pack breaking`, `wop pack lint --against` and `wop pack bump` do:
// it finds the previous release (through the caller's PreviousFunc), reads
// the pack's .wop.yaml, and asks internal/breaking, which stays a pure
// comparison of two packs, what changed and what bump that needs.
package releasecheck

import (
	"context"
	"errors"

	"github.com/wop-cli/wop/internal/breaking"
	"github.com/wop-cli/wop/internal/config"
	"github.com/wop-cli/wop/internal/exitcode"
	"github.com/wop-cli/wop/internal/pack"
	prevrelease "github.com/wop-cli/wop/internal/release"
	"github.com/wop-cli/wop/internal/tarball"
)

// PreviousFunc loads the release an --against value names (release.Previous
// with the caller's registry credentials); the returned func removes any
// temporary file. It returns prevrelease.ErrNoPrevious for a first release.
type PreviousFunc func(ctx context.Context, ref, packPath string, lim tarball.Limits) (*pack.Pack, func(), error)

// comparison is one pack against the release an --against value names.
type comparison struct {
	previous PreviousFunc
	against  string
	dir      string // the pack's path as the previous release is looked up from
	limits   tarball.Limits
	cfg      *config.Config
	provides func(typeID string) bool // a catalog's node types; nil for none
}

// run compares pk with the previous release; first says there is none.
func (c comparison) run(ctx context.Context, pk *pack.Pack) (res *breaking.Result, first bool, err error) {
	old, cleanup, first, err := c.load(ctx)
	defer cleanup()
	if first || err != nil {
		return nil, first, err
	}
	res, err = c.compare(old, pk)
	return res, false, err
}

// load reads the previous release; first says there is none. The returned
// func removes what the load left on disk, and is never nil.
func (c comparison) load(ctx context.Context) (old *pack.Pack, cleanup func(), first bool, err error) {
	old, cleanup, err = c.previous(ctx, c.against, c.dir, c.limits)
	if cleanup == nil {
		cleanup = func() {}
	}
	if errors.Is(err, prevrelease.ErrNoPrevious) {
		return nil, cleanup, true, nil
	}
	return old, cleanup, false, err
}

// compare says what changed from old to pk, with what .wop.yaml accepts.
func (c comparison) compare(old, pk *pack.Pack) (*breaking.Result, error) {
	res, err := breaking.Compare(old, pk, breaking.Options{Accept: acceptList(c.cfg), Provides: c.provides})
	if err != nil {
		return nil, exitcode.Usagef("%v", err)
	}
	return res, nil
}

// CompareWith compares pk (in dir) with the release against names; a first
// release compares with nothing (bump auto then picks a patch step).
func CompareWith(ctx context.Context, previous PreviousFunc, against, dir string, pk *pack.Pack, cfg *config.Config) (*breaking.Result, error) {
	c := comparison{previous: previous, against: against, dir: dir, limits: tarball.DefaultLimits, cfg: cfg}
	res, first, err := c.run(ctx, pk)
	if first {
		cur, err := pk.ManifestString("version")
		return &breaking.Result{OldVersion: cur}, err
	}
	return res, err
}

// acceptList is the configuration's breaking.accept entries.
func acceptList(c *config.Config) []breaking.Acceptance {
	var out []breaking.Acceptance
	for _, a := range c.Breaking.Accept {
		out = append(out, breaking.Acceptance{Rule: a.Rule, Where: a.Where})
	}
	return out
}
