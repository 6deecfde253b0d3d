package chain

import "fmt"

// giveTitle is the fix where the node shows the title.
const giveTitle = "what the node shows names the wrong workflow; give it this chain's title"

// titleFix is the fix chain-node-title-foreign names for a node's foreign
// title in its inputs or config member: where the node type's schema for
// that member is known and closed and declares no title, the key is stray
// (the node never reads it, so nothing shows the wrong name) and deleting
// it is the fix; otherwise the node shows it, and it needs this chain's
// title.
func titleFix(d *DAG, id, member string, o Options) string {
	n := d.Node(id)
	if n == nil || n.Type == nil {
		return giveTitle
	}
	a := &analyzer{d: d, o: o}
	s := a.inputSchema(n)
	if member == "config" {
		s = a.schema(n.Type, n.Type.ConfigSchema)
	}
	if _, declared := s.props["title"]; s.ok && s.closed && !declared {
		return fmt.Sprintf("%s's %s schema declares no title (it has %s), so the node never reads it: delete the key", n.Type.TypeID, map[string]string{"inputs": "input", "config": "config"}[member], KeyList(s.props))
	}
	return giveTitle
}
