package chain

import (
	"fmt"
	"strings"

	"github.com/wop-cli/wop/internal/suggest"
)

// Ordering-only edges. The registry's chains order a step after another
// with an edge into a port no node type declares: "approval._order", or
// "write.decision" into a node whose schema has no decision. The edge makes
// the target wait for its source (an email goes out only after approval);
// the value it carries lands under a key the node does not read (the
// reference host hands a node its edge-fed ports as ctx.inputs,
// openwop-app-install backend/typescript/src/executor/nodeCtxInputs.ts, and a node
// reads the keys it knows), so the port name is a label. Such an edge is a
// documented form, not a dangling one: reporting it as an error whose fix
// is to delete or re-point it would remove the wait.
//
// An edge is ordering-only when the port it names is not an input of the
// target's type and
//   - the port starts with "_" ("_order"): a name no schema declares, chosen
//     to say so; or
//   - the type's input schema is known and closed (so the port is surely
//     undeclared), the node's own inputs and config do not set the key (so
//     the chain does not expect it to hold a value), and no declared input
//     is a near spelling of it (then it is a typo, and dangling).
func (a *analyzer) markOrdering() {
	for i := range a.d.Edges {
		e := &a.d.Edges[i]
		if e.Dangling || e.ToPort == "" {
			continue
		}
		if n := a.d.Node(e.To); n != nil {
			e.OrderingOnly = a.orderingOnly(n, strings.SplitN(e.ToPort, ".", 2)[0])
		}
	}
}

func (a *analyzer) orderingOnly(n *Node, port string) bool {
	s := a.inputSchema(n)
	if _, declared := s.props[port]; s.ok && declared {
		return false
	}
	if strings.HasPrefix(port, "_") {
		return true
	}
	if !s.ok || !s.closed || nodeSets(n, port) {
		return false
	}
	_, typo := nearInput(port, s)
	return !typo
}

// nodeSets reports whether the node's own inputs or config member sets key.
func nodeSets(n *Node, key string) bool {
	return n.Value != nil && (n.Value.Get("inputs").Get(key) != nil || n.Value.Get("config").Get(key) != nil)
}

// nearInput is the one declared input a port is a near spelling of.
func nearInput(port string, s schemaOf) (string, bool) {
	names := make([]string, 0, len(s.props))
	for k := range s.props {
		names = append(names, k)
	}
	if c := suggest.Closest(port, names, 2); len(c) == 1 {
		return c[0], true
	}
	return "", false
}

// portHint is what a dangling port's finding adds: the input it is a near
// spelling of, when one stands out.
func portHint(port string, s schemaOf) string {
	if name, ok := nearInput(strings.SplitN(port, ".", 2)[0], s); ok {
		return fmt.Sprintf("; did you mean %q?", name)
	}
	return ""
}
