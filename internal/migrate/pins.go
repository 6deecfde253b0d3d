package migrate

import (
	"fmt"
	"strconv"

	"github.com/Masterminds/semver/v3"
	"github.com/wop-cli/wop/internal/jsonedit"
	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/spec"
)

// Catalog is what pinning needs from a catalog (internal/catalog): the
// exact version it holds of a node type, and of a pack.
type Catalog interface {
	// NodeVersion returns the version of the node type typeID the catalog
	// resolves to; ok is false when no pack in it defines typeID.
	NodeVersion(typeID string) (version string, ok bool)
	// PackVersion returns the version of the pack name it holds.
	PackVersion(name string) (version string, ok bool)
}

// pins gives every chain node reference and external sub-chain an exact
// version (workflow-chain-packs.md §Exact pins): a bare typeId or a range
// becomes the catalog's exact version, when the catalog has one that fits.
func (m *migration) pins(root *jsonpos.Value) error {
	// All pins go in one edit: a chain may have thousands of nodes and
	// sub-chains, and editing one by one re-parses the manifest each time.
	pins := map[string]any{}
	for i, c := range items(root.Get("chains")) {
		at := "/chains/" + strconv.Itoa(i)
		for j, n := range items(c.Get("dag").Get("nodes")) {
			ptr := at + "/dag/nodes/" + strconv.Itoa(j) + "/typeId"
			if pin, ok := m.pinNode(ptr, n.Get("typeId")); ok {
				pins[ptr] = pin
			}
		}
		for j, s := range items(c.Get("subChains")) {
			ptr := at + "/subChains/" + strconv.Itoa(j) + "/ref/version"
			if pin, ok := m.pinSubChain(ptr, s.Get("ref")); ok {
				pins[ptr] = pin
			}
		}
	}
	out, err := jsonedit.SetAll(m.src, pins)
	if err != nil {
		return err
	}
	m.src = out
	return nil
}

// pinNode returns the pinned reference for the node typeId ref at ptr; ok
// is false when it is pinned already or cannot be (noted).
func (m *migration) pinNode(ptr string, ref *jsonpos.Value) (pin string, ok bool) {
	if ref == nil || ref.Kind != jsonpos.String {
		return "", false // the schema says why
	}
	typeID, want, hasVersion := spec.SplitPin(ref.Str)
	if hasVersion && spec.ExactVersion(want) {
		return "", false
	}
	if typeID == "" {
		m.note(ptr, "%q names no node type; write the typeId as type@X.Y.Z", ref.Str)
		return "", false
	}
	if m.catalog == nil {
		m.note(ptr, "%q: a v2 chain pins each node type to an exact version (%s@X.Y.Z); migrate with --catalog (a registry, checkout or folder of packs) to pin the version it holds, or write it", ref.Str, typeID)
		return "", false
	}
	have, found := m.catalog.NodeVersion(typeID)
	if !found {
		m.note(ptr, "%q: no pack in the catalog defines %s, so its exact version is left to you (%s@X.Y.Z)", ref.Str, typeID, typeID)
		return "", false
	}
	if why := cannotPin(have, want, hasVersion); why != "" {
		m.note(ptr, "%q: %s; write %s@X.Y.Z with the version the chain was built against", ref.Str, why, typeID)
		return "", false
	}
	return typeID + "@" + have, true
}

// pinSubChain returns the exact version for the external sub-chain ref,
// whose version is at ptr; ok is false when it is pinned already or cannot
// be (noted).
func (m *migration) pinSubChain(ptr string, ref *jsonpos.Value) (pin string, ok bool) {
	if ref == nil || ref.Kind != jsonpos.Object {
		return "", false // a sibling chainId is pinned through the sibling
	}
	v := ref.Get("version")
	if v != nil && v.Kind == jsonpos.String && spec.ExactVersion(v.Str) {
		return "", false
	}
	name := ref.Get("packName").String()
	if name == "" {
		return "", false // no pack to pin: the schema says why
	}
	what := fmt.Sprintf("external sub-chain %s#%s", name, ref.Get("chainId").String())
	if v != nil && v.Kind != jsonpos.String {
		// A number or object is no range to check the catalog's version
		// against, and replacing it would hide what the author meant.
		m.note(ptr, "%s: version is not a string; write the exact version to compose as \"X.Y.Z\"", what)
		return "", false
	}
	want, hasVersion := v.String(), v != nil
	if m.catalog == nil {
		m.note(ptr, "%s: a v2 chain pins it to an exact version; migrate with --catalog to pin the version the catalog holds, or write it", what)
		return "", false
	}
	have, found := m.catalog.PackVersion(name)
	if !found {
		m.note(ptr, "%s: the catalog has no pack %s, so its exact version is left to you", what, name)
		return "", false
	}
	if why := cannotPin(have, want, hasVersion); why != "" {
		m.note(ptr, "%s: %s; pin the version to compose by hand", what, why)
		return "", false
	}
	return have, true
}

// cannotPin says why the catalog's version have may not replace the range
// want ("" when it may): it must be exact and, when the author wrote a
// range, inside it.
func cannotPin(have, want string, hasVersion bool) string {
	if have == "" {
		return "the catalog knows no version of it"
	}
	if !spec.ExactVersion(have) {
		return fmt.Sprintf("the catalog's version %q is not an exact X.Y.Z", have)
	}
	if !hasVersion {
		return ""
	}
	c, err := semver.NewConstraint(want)
	if err != nil {
		return fmt.Sprintf("%q is not a version range wop can read", want)
	}
	if v, err := semver.NewVersion(have); err != nil || !c.Check(v) {
		return fmt.Sprintf("the catalog's version %s is outside %q", have, want)
	}
	return ""
}

// items returns v's elements when it is an array, else none.
func items(v *jsonpos.Value) []*jsonpos.Value {
	if v == nil || v.Kind != jsonpos.Array {
		return nil
	}
	return v.Items
}
