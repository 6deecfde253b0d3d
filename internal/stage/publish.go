package stage

import (
	"context"

	"github.com/wop-cli/wop/internal/publish"
	"github.com/wop-cli/wop/internal/registry"
)

// TreeError is an archive whose signing block does not fit the registry
// tree asked for (CheckTree): the caller's to fix.
type TreeError struct{ Err error }

func (e *TreeError) Error() string { return e.Err.Error() }
func (e *TreeError) Unwrap() error { return e.Err }

// KeyError is a signing key the checkout does not list as the registry
// would take it (Checkout.CheckKey).
type KeyError struct{ Err error }

func (e *KeyError) Error() string { return e.Err.Error() }
func (e *KeyError) Unwrap() error { return e.Err }

// Publish stages p into the checkout as a registry with a write API would
// take it: the checkout's discovery document stands in for the registry's
// (no network), then the tree, the key as the checkout lists it and the
// publish gates are checked before anything is written (Stage). The
// discovery document is returned for the registry's URL.
func Publish(ctx context.Context, c *Checkout, p Pack, opt Options) (*Result, *registry.Discovery, error) {
	d, err := c.Discover(ctx)
	if err != nil {
		return nil, nil, err
	}
	if err := CheckTree(opt.Tree, p.Archive); err != nil {
		return nil, nil, &TreeError{err}
	}
	if err := c.CheckKey(d, p.Archive.KeyID(), p.Archive.Name); err != nil {
		return nil, nil, &KeyError{err}
	}
	if err := publish.Gates(ctx, c.Client(d), d, p.Archive); err != nil {
		return nil, nil, err
	}
	res, err := Stage(ctx, c, p, opt)
	return res, d, err
}
