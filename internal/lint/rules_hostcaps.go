package lint

import (
	"slices"
	"strings"

	"github.com/wop-cli/wop/internal/jsonpos"
)

// knownHostCapabilities lists the host capabilities some known host
// provides, as peerDependencies name them. The only host wop knows yet is
// the reference host application (github.com/openwop/openwop-app-install):
// the surfaces its bootstrap/hostSurfaceRegistry.ts seeds as supported
// (host.mcp behind a switch), the runtime capabilities its
// bootstrap/runtimeCapabilityRegistry.ts advertises, and the agent-pack
// capabilities its bootstrap/agentPackResolver.ts satisfies (it says
// outright that it does not provide host.agentRuntime). The host profiles
// of the catalog add theirs (knownCapabilities).
func knownHostCapabilities() []string {
	return []string{
		// hostSurfaceRegistry.ts, supported
		"host.a2a", "host.aiProviders", "host.canvas", "host.chat", "host.fs", "host.interrupts",
		"host.kanban", "host.knowledge", "host.launchStudio", "host.mcp", "host.triggers", "host.webResearch",
		// runtimeCapabilityRegistry.ts
		"secrets", "audit", "observability", "artifacts.local",
		// agentPackResolver.ts
		"agents.manifestRuntime", "aiProviders",
	}
}

// hostSurfaceFamilies are the host surface names the reference host knows
// of, provided or not (hostSurfaceRegistry.ts): a peer dependency written
// with the plain family name (fs, mcp, aiProviders), as host-capabilities.md
// lets discovery documents spell them, is a host capability too.
var hostSurfaceFamilies = []string{
	"a2a", "aiProviders", "blobStorage", "cache", "canvas", "chat", "db", "fs", "interrupts", "kanban",
	"knowledge", "kvStorage", "launchStudio", "mcp", "memory", "messaging", "observability", "queue",
	"tableStorage", "triggers", "webResearch",
}

// checkPeerDepCapabilityUnprovided reports a peer dependency on a host
// capability no known host provides. The spec has a host that lacks it
// refuse to register the pack (pack_peer_dependency_missing) unless it is
// optional; the reference host does not check peer dependencies at all
// (openwop-app-install backend/typescript/src/packs/tarballLoader.ts registers every
// node of the nodes map), so there the nodes load and fail when they reach
// for the surface (host_capability_missing). The message says both. Facets
// (aiProviders.imageGeneration) of a provided family are not judged: hosts
// are known by family.
func checkPeerDepCapabilityUnprovided(p *Pass) {
	peers := p.Root().Get("peerDependencies")
	if peers == nil || peers.Kind != jsonpos.Object {
		return
	}
	known, hosts := knownCapabilities(p)
	for _, m := range peers.Members {
		if !isHostCapability(m.Name) || provided(known, m.Name) {
			continue
		}
		if opt := p.Root().Get("peerDependenciesMeta").Get(m.Name).Get("optional"); opt != nil && opt.Kind == jsonpos.Bool && opt.Bool {
			continue // degrades instead of refusing the install (RFC 0072)
		}
		p.ReportNamef("/peerDependencies/"+jsonpos.EscapeToken(m.Name), "peer dependency %q: no known host provides this capability (%s %s); the spec has a host that lacks it refuse to register the pack (pack_peer_dependency_missing), and the reference host, which does not check peer dependencies, loads it and its nodes fail when they reach for the capability (host_capability_missing): depend on a capability hosts provide, or mark it optional in peerDependenciesMeta if the pack works without it", m.Name, hosts, strings.Join(hostNamespace(known), ", "))
	}
}

// knownCapabilities returns the host capabilities known hosts provide: the
// reference host's, and the surfaces and runtime capabilities of the host
// profiles in the catalog (--host, host: in .wop.yaml). hosts names them
// for messages, with the verb.
func knownCapabilities(p *Pass) (known []string, hosts string) {
	known = knownHostCapabilities()
	hosts = "the reference host openwop-app provides"
	if p.Catalog == nil {
		return known, hosts
	}
	var names []string
	for _, h := range p.Catalog.Hosts() {
		known = append(known, h.HostSurfaces...)
		known = append(known, h.RuntimeCapabilities...)
		names = append(names, h.Name)
	}
	if len(names) > 0 {
		hosts = "the reference host openwop-app and the host profiles " + strings.Join(names, ", ") + " provide"
	}
	slices.Sort(known)
	return slices.Compact(known), hosts
}

// isHostCapability reports whether a peer dependency names a host
// capability: one in the host.* namespace, or a host surface family
// written plainly, or the secrets family.
func isHostCapability(name string) bool {
	if strings.HasPrefix(name, "host.") {
		return true
	}
	family, _, _ := strings.Cut(name, ".")
	return family == "secrets" || slices.Contains(hostSurfaceFamilies, family)
}

// provided reports whether a known capability covers name: the same id in
// either spelling (fs, host.fs), its family (aiProviders covers
// aiProviders.imageGeneration), or a member of it (host.db.sql covers
// host.db).
func provided(known []string, name string) bool {
	for _, n := range []string{name, "host." + name} {
		for _, k := range known {
			if n == k || strings.HasPrefix(n, k+".") || strings.HasPrefix(k, n+".") {
				return true
			}
		}
	}
	return false
}

// hostNamespace returns the host.* entries of known, for messages.
func hostNamespace(known []string) []string {
	var out []string
	for _, k := range known {
		if strings.HasPrefix(k, "host.") {
			out = append(out, k)
		}
	}
	return out
}
