package spec

import (
	"fmt"
	"strconv"

	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/regex"
)

// Tree is a registry tree: the spec version a manifest is judged by.
type Tree string

// The trees, and Auto, which picks one per manifest (TreeOf).
const (
	V1   Tree = "v1"
	V2   Tree = "v2"
	Auto Tree = "auto"
)

// ParseTree reads a --spec flag value.
func ParseTree(s string) (Tree, error) {
	switch t := Tree(s); t {
	case V1, V2, Auto:
		return t, nil
	case "":
		return Auto, nil
	}
	return "", fmt.Errorf("--spec %q: want auto, v1 or v2", s)
}

// EngineRange is the engine-range shape v2 requires (packs.md "The engine
// range"): ">=x[.y[.z]] <M.0.0". The same expression as the registry's
// scripts/lib/registry-tree.mjs.
var EngineRange = regex.Lazy(`^>=\d+(\.\d+){0,2} <(\d+)\.0\.0$`)

// Ceiling returns the major version M of a range ">=x <M.0.0" and whether
// the range has that shape.
func Ceiling(engineRange string) (int, bool) {
	m := EngineRange().FindStringSubmatch(engineRange)
	if m == nil {
		return 0, false
	}
	n, err := strconv.Atoi(m[2])
	return n, err == nil
}

// AdmitsV2 reports whether an engines.openwop range admits protocol major 2
// with an explicit ceiling, the registry's test for a v2 manifest.
func AdmitsV2(engineRange string) bool {
	n, ok := Ceiling(engineRange)
	return ok && n > 2
}

// TreeOf returns the tree a manifest publishes to: v2 when its engine
// range admits major 2, v1 for everything else (registry-tree.mjs
// publicationTree).
func TreeOf(root *jsonpos.Value) Tree {
	if r := root.Get("engines").Get("openwop"); r != nil && r.Kind == jsonpos.String && AdmitsV2(r.Str) {
		return V2
	}
	return V1
}

// Resolve turns a requested tree into the one to use for root: Auto picks
// by the engine range; V1 and V2 are kept.
func (t Tree) Resolve(root *jsonpos.Value) Tree {
	if t == Auto || t == "" {
		return TreeOf(root)
	}
	return t
}
