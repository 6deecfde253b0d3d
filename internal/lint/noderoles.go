package lint

import "slices"

// NodeRoles lists the node roles role-unknown accepts (the schema leaves
// role open), for an editor to offer.
func NodeRoles() []string { return slices.Clone(nodeRoles) }
