// Package hosts holds the host profiles wop ships (docs/hosts.md): what a
// known host application provides itself, beyond the packs it installs.
// A chain linted without a host profile of its own (--host, .wop.yaml
// host:) that names a node type one of them provides is told which host
// runs it, rather than that every host refuses it.
package hosts

import (
	"embed"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/wop-cli/wop/internal/catalog"
)

// files are the shipped profiles: every *.json of this folder, compiled
// into the binary, so the lint cache's build salt covers them.
//
//go:embed *.json
var files embed.FS

// Known returns the shipped host profiles in file name order, each with
// Path "hosts/<file>" (its path in wop's repository).
func Known() ([]*catalog.Host, error) {
	names, err := fs.Glob(files, "*.json")
	if err != nil {
		return nil, err
	}
	out := make([]*catalog.Host, 0, len(names))
	for _, name := range names {
		raw, err := files.ReadFile(name)
		if err != nil {
			return nil, err
		}
		h, err := catalog.ParseHost(raw)
		if err != nil {
			return nil, &fs.PathError{Op: "parse", Path: path.Join("hosts", name), Err: err}
		}
		h.Path = path.Join("hosts", name)
		out = append(out, h)
	}
	return out, nil
}

// Providers returns a function that answers which shipped host profile
// lists a typeId among its node types (the first in file name order; nil
// for none), when the lint targets no host of its own (c, nil or a
// catalog, has none merged); when it does, the function answers nil. A
// registry's chains are written over a known host's node types on
// purpose, and that host runs them; a lint that names its host (--host,
// .wop.yaml host:) is checked against that host alone.
//
// The function parses the profiles on its first call, once: it is asked
// only of typeIds nothing else defines, so most lints never parse them,
// and a chain of many such nodes parses them once. TestKnown holds every
// shipped profile valid; were one not, no typeId would resolve through
// them, as before wop shipped any.
func Providers(c *catalog.Catalog) func(typeID string) *catalog.Host {
	if c != nil && len(c.Hosts()) > 0 {
		return func(string) *catalog.Host { return nil }
	}
	var byType map[string]*catalog.Host
	return func(typeID string) *catalog.Host {
		if byType == nil {
			byType = map[string]*catalog.Host{}
			known, _ := Known()                        // none on an error (see above)
			for _, h := range slices.Backward(known) { // the first profile listing an id wins
				for _, id := range h.NodeTypes {
					byType[id] = h
				}
			}
		}
		return byType[typeID]
	}
}

// Named returns the shipped host profile whose host is name, or nil: a
// host profile setting (--host, .wop.yaml host:) may name a shipped host
// ("openwop-app") instead of a file, so a pack author who installed wop
// alone can target the reference host. A value with a path separator is
// always a file.
func Named(name string) *catalog.Host {
	if name == "" || strings.ContainsAny(name, `/\`) {
		return nil
	}
	known, err := Known()
	if err != nil {
		return nil
	}
	for _, h := range known {
		if h.Name == name {
			return h
		}
	}
	return nil
}
