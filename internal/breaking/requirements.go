package breaking

import (
	"fmt"
	"slices"
	"strings"

	"github.com/Masterminds/semver/v3"
	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/regex"
)

var versionInRange = regex.Lazy(`\d+\.\d+\.\d+`)

// compareEngines reports an engines.openwop range that admits fewer
// protocol versions. Ranges are compared on probe versions: each version
// either range names, its neighbours and the next majors.
func (c *comparison) compareEngines() {
	oldR := c.old.manifest.Root.Get("engines").Get("openwop").String()
	newR := c.new.manifest.Root.Get("engines").Get("openwop").String()
	if oldR == newR || newR == "" {
		return
	}
	oc, err1 := semver.NewConstraint(oldR)
	nc, err2 := semver.NewConstraint(newR)
	if err1 != nil || err2 != nil {
		return // lint's engines-range-invalid says why
	}
	for _, p := range probes(oldR + " " + newR) {
		if oc.Check(p) && !nc.Check(p) {
			c.add("engines-narrowed", "/engines/openwop", "/engines/openwop", "engines.openwop %q no longer admits protocol %s, which %q did: hosts on it can no longer install the pack", newR, p, oldR)
			return
		}
	}
}

func probes(ranges string) []*semver.Version {
	var out []*semver.Version
	add := func(s string) {
		if v, err := semver.StrictNewVersion(s); err == nil {
			out = append(out, v)
		}
	}
	add("0.0.0")
	for _, m := range versionInRange().FindAllString(ranges, -1) {
		v, err := semver.StrictNewVersion(m)
		if err != nil {
			continue
		}
		out = append(out, v)
		for _, n := range []semver.Version{v.IncPatch(), v.IncMinor(), v.IncMajor()} {
			out = append(out, &n)
		}
		if v.Patch() > 0 {
			add(fmt.Sprintf("%d.%d.%d", v.Major(), v.Minor(), v.Patch()-1))
		}
		if v.Minor() > 0 {
			add(fmt.Sprintf("%d.%d.0", v.Major(), v.Minor()-1))
		}
		if v.Major() > 0 {
			add(fmt.Sprintf("%d.0.0", v.Major()-1))
		}
	}
	slices.SortFunc(out, func(a, b *semver.Version) int { return a.Compare(b) })
	return out
}

// comparePeerDeps reports peer dependencies that are new and not optional.
func (c *comparison) comparePeerDeps() {
	o, n := c.old.manifest.Root.Get("peerDependencies"), c.new.manifest.Root.Get("peerDependencies")
	if n == nil || n.Kind != jsonpos.Object {
		return
	}
	meta := c.new.manifest.Root.Get("peerDependenciesMeta")
	for _, m := range n.Members {
		if opt := meta.Get(m.Name).Get("optional"); o.Get(m.Name) != nil || opt != nil && opt.Kind == jsonpos.Bool && opt.Bool {
			continue
		}
		c.add("peer-dependency-added", "/peerDependencies/"+jsonpos.EscapeToken(m.Name), "", "new required peer dependency %q: hosts without it refuse to install the pack (mark it optional in peerDependenciesMeta if the pack degrades without it)", m.Name)
	}
}

// compareRuntime reports new runtime.requires entries and a changed
// minRuntimeVersion.
func (c *comparison) compareRuntime() {
	o, n := c.old.manifest.Root.Get("runtime"), c.new.manifest.Root.Get("runtime")
	var old []any
	if r := o.Get("requires"); r != nil {
		for _, it := range r.Items {
			old = append(old, it.Interface())
		}
	}
	if r := n.Get("requires"); r != nil {
		for i, it := range r.Items {
			if !slices.ContainsFunc(old, func(x any) bool { return equalValues(x, it.Interface()) }) {
				c.add("runtime-requirement-added", "/runtime/requires/"+itoa(i), "", "runtime.requires gained %s: sandboxed hosts that do not grant it refuse the pack", compact(it))
			}
		}
	}
	om, nm := o.Get("minRuntimeVersion").String(), n.Get("minRuntimeVersion").String()
	if nm != "" && om != nm {
		c.add("runtime-requirement-added", "/runtime/minRuntimeVersion", "/runtime/minRuntimeVersion", "runtime.minRuntimeVersion changed from %q to %q", om, nm)
	}
}

func compact(v *jsonpos.Value) string {
	if v.Kind == jsonpos.String {
		return fmt.Sprintf("%q", v.Str)
	}
	return values([]any{v.Interface()})
}

// compareChainProviders reports node types a chain's DAG newly uses that
// nothing known provides: the pack's own nodes, a declared dependency (by
// namespace), or the catalog in Options.Provides.
func (c *comparison) compareChainProviders() {
	used := map[string]bool{}
	eachDagNode(c.old.manifest.Root, func(_ string, typeID string) { used[typeID] = true })
	own, _ := byKey(c.new.manifest.Root, "nodes", "typeId")
	var deps []string
	for _, f := range []string{"dependencies", "peerDependencies"} {
		if d := c.new.manifest.Root.Get(f); d != nil {
			for _, m := range d.Members {
				deps = append(deps, m.Name)
			}
		}
	}
	reported := map[string]bool{}
	eachDagNode(c.new.manifest.Root, func(ptr, typeID string) {
		if used[typeID] || reported[typeID] || own[typeID].v != nil || c.opt.Provides != nil && c.opt.Provides(typeID) {
			return
		}
		if slices.ContainsFunc(deps, func(d string) bool { return strings.HasPrefix(typeID, d+".") }) {
			return
		}
		reported[typeID] = true
		c.add("chain-node-unprovided", ptr, "", "the chain now uses node type %q, which no declared dependency provides: hosts without it cannot run the chain (declare the pack that defines it in dependencies)", typeID)
	})
}

func eachDagNode(root *jsonpos.Value, fn func(ptr, typeID string)) {
	chains := root.Get("chains")
	if chains == nil {
		return
	}
	for i, ch := range chains.Items {
		nodes := ch.Get("dag").Get("nodes")
		if nodes == nil {
			continue
		}
		for j, n := range nodes.Items {
			if t := n.Get("typeId").String(); t != "" {
				fn("/chains/"+itoa(i)+"/dag/nodes/"+itoa(j)+"/typeId", t)
			}
		}
	}
}
