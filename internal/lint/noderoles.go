package lint

import (
	"fmt"
	"slices"
	"strings"

	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/suggest"
)

// specRoles are the NodeRole values the spec's node-pack manifest schema
// names ("Common values", nodes[].role): the list is open there.
var specRoles = []string{"pure", "side-effect", "human-input", "streaming-output", "gate"}

// hostRoles is the reference host's closed role taxonomy (github.com/openwop/openwop-app-install,
// scripts/gen-side-effect-floor.mjs, ROLES): its build fails on a bundled
// pack's node whose role is missing or outside it, so that a typo never
// drops a node out of replay's side-effect floor. The registry's packs use
// its "read" and "action" widely.
var hostRoles = []string{"pure", "read", "gate", "action", "side-effect", "streaming-output"}

// nodeRoles is every role role-unknown accepts: the spec's, then the
// reference host's that the spec does not name.
var nodeRoles = union(specRoles, hostRoles)

// union is a's words, then b's that a lacks, in order.
func union(a, b []string) []string {
	out := slices.Clone(a)
	for _, w := range b {
		if !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// NodeRoles lists the node roles role-unknown accepts (the schema leaves
// role open), for an editor to offer.
func NodeRoles() []string { return slices.Clone(nodeRoles) }

func checkRoleUnknown(p *Pass) {
	eachNode(p, func(ptr string, n *jsonpos.Value) {
		r := n.Get("role")
		if r == nil || r.Kind != jsonpos.String || slices.Contains(nodeRoles, r.Str) {
			return
		}
		msg := fmt.Sprintf("role %q is neither a NodeRole the spec names (%s) nor in the reference host's closed taxonomy (%s): that host's build refuses a bundled pack whose node has a role it does not know, and no engine can tell from it whether the node has effects; ",
			r.Str, strings.Join(specRoles, ", "), strings.Join(hostRoles, ", "))
		// The one known role a misspelt role is near ("side_effect"); none
		// when two are as near.
		if g, ok := suggest.Only(r.Str, nodeRoles, 2); ok {
			p.Suggest(pack.ManifestName, p.Manifest, ptr+"/role", false, msg+fmt.Sprintf("did you mean %q?", g), g, true)
			return
		}
		p.Reportf(ptr+"/role", "%sname the role that says what the node does (side-effect for effects, read for a lookup, pure for a transform)", msg)
	})
}
