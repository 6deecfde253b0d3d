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

// Providing returns the first shipped host profile that lists typeID among
// its node types, when the lint targets no host of its own (c, nil or a
// catalog, has none merged); nil otherwise. A registry's chains are
// written over a known host's node types on purpose, and that host runs
// them; a lint that names its host (--host, .wop.yaml host:) is checked
// against that host alone.
//
// The profiles are parsed on each call: it is asked only of a typeId
// nothing else defines, and holding them parsed would take a global.
// TestKnown holds every shipped profile valid; were one not, no typeId
// would resolve through them, as before wop shipped any.
func Providing(c *catalog.Catalog, typeID string) *catalog.Host {
	if c != nil && len(c.Hosts()) > 0 {
		return nil
	}
	known, err := Known()
	if err != nil {
		return nil
	}
	for _, h := range known {
		if slices.Contains(h.NodeTypes, typeID) {
			return h
		}
	}
	return nil
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
