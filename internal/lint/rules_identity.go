package lint

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/Masterminds/semver/v3"
	"github.com/wop-cli/wop/internal/catalog"
	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/packname"
	"github.com/wop-cli/wop/internal/regex"
	"github.com/wop-cli/wop/internal/spec"
)

func packName(p *Pass) string { return p.Root().Get("name").String() }

func checkNameScopeLocal(p *Pass) {
	if strings.HasPrefix(packName(p), "local.") {
		p.Reportf("/name", "local.* packs are for in-repo use and never publishable; rename it under community.<you>.*, vendor.<org>.* or private.<host>.*")
	}
}

func checkNameScopePrivate(p *Pass) {
	if !strings.HasPrefix(packName(p), "private.") {
		return
	}
	msg := "private.* packs belong on a private registry"
	if p.Profile.Public {
		p.ReportSeverity(diag.Error, "/name", "%s; the target registry in .wop.yaml is public, which refuses them", msg)
		return
	}
	p.Reportf("/name", "%s; the public registry refuses them (set registry: private in .wop.yaml to silence this)", msg)
}

func checkNameScopeCore(p *Pass) {
	if strings.HasPrefix(packName(p), "core.") {
		p.Reportf("/name", "core.* is reserved for the OpenWOP working group; other authors publish under community.<you>.* or vendor.<org>.*")
	}
}

// checkNameDirMismatch applies to registry-style layouts only: a directory
// already named like a pack, or one among sibling packs. A single-pack repo's
// root is named after the repo, and that is fine.
func checkNameDirMismatch(p *Pass) {
	if p.Place.Abs == "" {
		return
	}
	dir, name := filepath.Base(p.Place.Abs), packName(p)
	if name == "" || dir == name || p.Place.RepoRoot {
		return // a repository's name is its owner's: only a registry's layout is judged
	}
	inRegistryLayout := p.Place.SiblingPacks || filepath.Base(filepath.Dir(p.Place.Abs)) == "packs"
	if !inRegistryLayout && !strings.Contains(dir, ".") {
		return
	}
	p.Reportf("/name", "name %q differs from the directory %q; a registry lays packs out as packs/<name>/, so rename one", name, dir)
}

func checkSemver(p *Pass) {
	check := func(v *jsonpos.Value, ptr, what string) {
		if v == nil || v.Kind != jsonpos.String {
			return
		}
		if _, err := semver.StrictNewVersion(v.Str); err != nil {
			fix := ""
			if loose, lerr := semver.NewVersion(v.Str); lerr == nil {
				fix = fmt.Sprintf("; write %q", loose.String())
			}
			p.Reportf(ptr, "%s %q is not strict SemVer 2.0.0 (MAJOR.MINOR.PATCH, no leading zeros or \"v\"): %v%s", what, v.Str, err, fix)
		}
	}
	check(p.Root().Get("version"), "/version", "version")
	eachObject(p.Root().Get("nodes"), "/nodes", func(ptr string, n *jsonpos.Value) {
		check(n.Get("version"), ptr+"/version", "node version")
	})
}

// versionValid reports whether the pack's version is strict SemVer. Rules
// that derive something from the version (schema $ids) stay silent when it
// is not: semver-invalid reports that cause once.
func versionValid(p *Pass) bool {
	_, err := semver.StrictNewVersion(p.Root().Get("version").String())
	return err == nil
}

// nameValid reports whether the pack's name is well formed (local.* names
// included). Rules that derive something from the name (schema $ids) stay
// silent when it is not: manifest-schema reports that cause once, and an
// $id built from a bad name would be advice to copy a mistake.
func nameValid(p *Pass) bool {
	return packname.Problem(packName(p), slices.Concat(packname.Tiers, []string{"local"})) == ""
}

// eachObject calls fn for each object item of an array value.
func eachObject(arr *jsonpos.Value, ptr string, fn func(ptr string, v *jsonpos.Value)) {
	if arr == nil || arr.Kind != jsonpos.Array {
		return
	}
	for i, it := range arr.Items {
		if it.Kind == jsonpos.Object {
			fn(fmt.Sprintf("%s/%d", ptr, i), it)
		}
	}
}

func enginesRange(p *Pass) (*jsonpos.Value, *semver.Constraints) {
	v := p.Root().Get("engines").Get("openwop")
	if v == nil || v.Kind != jsonpos.String {
		return v, nil
	}
	c, err := semver.NewConstraint(v.Str)
	if err != nil {
		return v, nil
	}
	return v, c
}

// defaultEngines is the range wop suggests when none usable is given.
const defaultEngines = ">=1.1.0 <2.0.0"

func checkEnginesRange(p *Pass) {
	if e := p.Root().Get("engines"); e != nil && e.Kind != jsonpos.Object {
		// One finding for the one cause: engines has the wrong shape. Its
		// advice is the whole corrected member, keeping a usable range.
		suggest := defaultEngines
		if e.Kind == jsonpos.String {
			if _, err := semver.NewConstraint(e.Str); err == nil {
				suggest = e.Str
			}
		}
		p.Reportf("/engines", "engines must be an object naming the protocol, not %s; write \"engines\": {\"openwop\": %q}", kindName(e), suggest)
		return
	}
	v, c := enginesRange(p)
	switch {
	case v == nil:
		p.Reportf("/engines", "engines.openwop is missing; write the protocol range the pack works with, e.g. \">=1.1.0 <2.0.0\"")
	case c == nil:
		p.Reportf("/engines/openwop", "engines.openwop %s is not a semver range; write e.g. \">=1.1.0 <2.0.0\"", quoteValue(v))
	}
}

// kindName says what a JSON value is, for messages: `a string ">=1.1"`.
func kindName(v *jsonpos.Value) string {
	switch v.Kind {
	case jsonpos.String:
		return fmt.Sprintf("a string %q", v.Str)
	case jsonpos.Array:
		return "an array"
	case jsonpos.Null:
		return "null"
	case jsonpos.Bool:
		return "a boolean"
	case jsonpos.Number:
		return "a number"
	}
	return "an object"
}

func quoteValue(v *jsonpos.Value) string {
	if v.Kind == jsonpos.String {
		return fmt.Sprintf("%q", v.Str)
	}
	return "(not a string)"
}

var upperBound = regex.Lazy(`<|\^|~|\s-\s|^=?\s*v?\d+(\.\d+){0,2}(-[\w.]+)?$|\.(x|X|\*)`)

func checkEnginesUnbounded(p *Pass) {
	v, c := enginesRange(p)
	if c == nil || p.Spec == spec.V2 && v2EngineRangeWrong(v.Str) {
		return // v2-engine-range owns it: one mistake, one finding
	}
	for _, alt := range strings.Split(v.Str, "||") {
		if !upperBound().MatchString(strings.TrimSpace(alt)) {
			p.Reportf("/engines/openwop", "%s", unboundedMessage(p, v.Str, lowestMajor(alt)))
			return
		}
	}
}

// unboundedMessage says what hosts make of an engine range without a
// ceiling: RFC 0177 §A.1 has a host read it as below the next major after
// protocol 1 ("<2.0.0"), so a v2 host refuses the pack (the registry's own
// gate, check-pack-engines-admit-major, calls such packs uninstallable on
// v2). Writing the ceiling says what the range already means; admitting
// protocol 2 takes "<3.0.0". A pack linted against protocol 2 never gets
// here: v2-engine-range says it.
func unboundedMessage(p *Pass, r string, low uint64) string {
	return fmt.Sprintf("engines.openwop %q has no upper bound, which hosts read as \"<2.0.0\" (RFC 0177 §A.1), so v2 hosts refuse the pack: write the ceiling it has (\"<%d.0.0\", the fix), or \"<3.0.0\" once the pack follows protocol 2", r, ceilingFor(p, low+1))
}

// ceilingFor is the engine-range ceiling major to suggest: next for a v1
// pack; for a v2 pack at least 3, since v2 hosts refuse a ceiling of 2.0.0.
func ceilingFor(p *Pass, next uint64) uint64 { return ceilingIn(p.Spec, next) }

func ceilingIn(tree spec.Tree, next uint64) uint64 {
	if tree == spec.V2 && next < 3 {
		return 3
	}
	return next
}

var firstNumber = regex.Lazy(`\d+`)

func lowestMajor(r string) uint64 {
	m := firstNumber().FindString(r)
	v, err := semver.NewVersion(m)
	if err != nil {
		return 1
	}
	return v.Major()
}

// agentsSince is the first protocol version with agents[] in pack manifests.
var agentsSince = semver.MustParse("1.1.0")

func checkAgentsEngine(p *Pass) {
	if p.Root().Get("agents") == nil {
		return
	}
	v, c := enginesRange(p)
	if c == nil {
		return
	}
	if c.Check(semver.MustParse("1.0.99")) {
		p.Reportf("/engines/openwop", "engines.openwop %q admits 1.0.x hosts, which predate agents[] (protocol 1.1.0); write \">=%s <%d.0.0\"", v.Str, agentsSince, ceilingFor(p, 2))
	}
}

func checkDependencies(p *Pass) {
	deps := p.Root().Get("dependencies")
	if deps == nil || deps.Kind != jsonpos.Object {
		return
	}
	for _, m := range deps.Members {
		ptr := "/dependencies/" + jsonpos.EscapeToken(m.Name)
		if !pack.NameRE().MatchString(m.Name) {
			p.ReportNamef(ptr, "dependency %q is not a pack name (<scope>.<org>.<name>); capabilities a host provides go in peerDependencies", m.Name)
			continue
		}
		if _, err := semver.NewConstraint(m.Value.String()); err != nil {
			p.Reportf(ptr, "dependency %q: %s is not a semver range; write e.g. \"^1.2.0\"", m.Name, quoteValue(m.Value))
		}
	}
}

func checkDependencySelf(p *Pass) {
	deps := p.Root().Get("dependencies")
	if deps != nil && deps.Get(packName(p)) != nil {
		p.ReportNamef("/dependencies/"+jsonpos.EscapeToken(packName(p)), "the pack depends on itself; delete this entry")
	}
}

// notARange are values that say whether a peer is needed, not which version:
// that belongs in peerDependenciesMeta.
var notARange = []string{"optional", "required", "true", "false", "yes", "no", ""}

func checkPeerDepValues(p *Pass) {
	peers := p.Root().Get("peerDependencies")
	if peers == nil || peers.Kind != jsonpos.Object {
		return
	}
	for _, m := range peers.Members {
		if slices.Contains(notARange, strings.ToLower(m.Value.String())) {
			p.Reportf("/peerDependencies/"+jsonpos.EscapeToken(m.Name), "peerDependencies[%q] is %s, which hosts read as a version requirement; write \"supported\" here and mark it optional with \"peerDependenciesMeta\": {%q: {\"optional\": true}}", m.Name, quoteValue(m.Value), m.Name)
		}
	}
}

func checkPeerDepMetaOrphan(p *Pass) {
	meta, peers := p.Root().Get("peerDependenciesMeta"), p.Root().Get("peerDependencies")
	if meta == nil || meta.Kind != jsonpos.Object {
		return
	}
	for _, m := range meta.Members {
		if peers.Get(m.Name) == nil {
			p.ReportNamef("/peerDependenciesMeta/"+jsonpos.EscapeToken(m.Name), "peerDependenciesMeta names %q, which is not in peerDependencies: the metadata applies to nothing", m.Name)
		}
	}
}

// specCoreTypeIDs are the Core typeIds the spec reserves for the workflow
// primitives every compliant server provides (node-packs.md, "Reserved Core
// OpenWOP node typeIds"); core.conformance.* is reserved besides, for
// conformance-only typeIds. The spec reserves the core.* scope for pack
// names, not typeIds: a typeId need not carry its pack's name, and
// multi-segment core typeIds (core.ai.callPrompt) are the optional tier any
// pack may ship.
var specCoreTypeIDs = []string{
	"core.start", "core.end", "core.conditional", "core.delay", "core.loop", "core.parallel",
	"core.merge", "core.setVariable", "core.getVariable", "core.interrupt", "core.identity",
	"core.subWorkflow", "core.channelWrite", "core.orchestrator.supervisor", "core.dispatch",
	"core.conversationGate",
}

// bareBuiltins are the primitive names some engines give their own nodes
// without a namespace; the spec reserves none of them.
var bareBuiltins = []string{"start", "end", "if", "switch", "loop", "merge", "delay", "wait", "subflow"}

// checkTypeIDReservedCore flags, in a pack outside core.*, the typeIds the
// spec reserves and the core.* typeIds another pack (or host) in the catalog
// defines too; any other core.* typeId is only information: it is legal, the
// spec recommends the pack's own prefix, and a vendor may keep one on
// purpose (the registry's vendor.myndhyve.chat keeps core.chat.*, which its
// chains name).
func checkTypeIDReservedCore(p *Pass) {
	name := packName(p)
	if strings.HasPrefix(name, "core.") {
		return
	}
	eachNode(p, func(ptr string, n *jsonpos.Value) {
		id := n.Get("typeId").String()
		switch {
		case slices.Contains(specCoreTypeIDs, id):
			p.Reportf(ptr+"/typeId", "typeId %q is a Core primitive the spec reserves (node-packs.md, Reserved Core OpenWOP node typeIds): every compliant host registers its own, so this one clashes with it; prefix it with the pack name %q", id, name)
		case strings.HasPrefix(id, "core.conformance."):
			p.Reportf(ptr+"/typeId", "typeId %q is in core.conformance.*, which the spec reserves for conformance-only typeIds that hosts may refuse outright; prefix it with the pack name %q", id, name)
		case strings.HasPrefix(id, "core."):
			if other, host, ok := otherDefiner(p, id, name); ok && host {
				p.Reportf(ptr+"/typeId", "typeId %q is registered by host %s itself: on that host this pack's node type clashes with the host's own; prefix this pack's with its name %q, or drop it and use the host's", id, other, name)
				return
			} else if ok {
				p.Reportf(ptr+"/typeId", "typeId %q is defined by pack %s too: with both installed, which one a chain naming it runs is up to the host; prefix this pack's with its name %q, or drop it and depend on pack %s", id, other, name, other)
				return
			}
			where := "no other pack defines it without a catalog to ask (--catalog)"
			if p.Catalog != nil {
				where = "no other pack in the catalog defines it"
			}
			p.ReportSeverity(diag.Info, ptr+"/typeId", "typeId %q is in core.*, outside pack %q's own name; the spec reserves core.* for pack names and a list of Core typeIds, neither of which this is, and %s; prefixing it with %q is recommended, but renaming it breaks every chain that names it", id, name, where, name)
		case slices.Contains(bareBuiltins, id):
			p.ReportSeverity(diag.Info, ptr+"/typeId", "typeId %q has no namespace, like some engines' own primitives; it collides with any other pack that chose it, so prefix it with the pack name %q", id, name)
		}
	})
}

// otherDefiner names the first pack or host in the catalog, other than the
// pack being linted, that defines typeID, and whether it is a host (named
// without the catalog's "host:" prefix).
func otherDefiner(p *Pass, typeID, self string) (name string, host, ok bool) {
	if p.Catalog == nil {
		return "", false, false
	}
	for _, pk := range p.Catalog.AllPacks() {
		if pk.Name != self && pk.Kind != "workflow-chain" && slices.Contains(pk.TypeIDs, typeID) {
			if pk.Kind == catalog.KindHost {
				return strings.TrimPrefix(pk.Name, "host:"), true, true
			}
			return pk.Name, false, true
		}
	}
	return "", false, false
}
