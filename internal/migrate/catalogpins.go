package migrate

import "github.com/wop-cli/wop/internal/catalog"

// Pins answers the migration's version questions from a catalog: the
// version of the pack defining a node type, and of a pack by name.
func Pins(c *catalog.Catalog) Catalog { return catalogPins{c} }

type catalogPins struct{ c *catalog.Catalog }

func (p catalogPins) NodeVersion(typeID string) (string, bool) {
	t, ok := p.c.NodeType(typeID)
	if !ok {
		return "", false
	}
	return t.Version, true
}

func (p catalogPins) PackVersion(name string) (string, bool) {
	pk, ok := p.c.Pack(name)
	return pk.Version, ok
}
