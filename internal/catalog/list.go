package catalog

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// WriteTable writes the catalog's node types as `wop pack catalog` lists
// them: a table of type id, pack, role and the schemas it declares.
func (c *Catalog) WriteTable(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TYPEID\tPACK\tROLE\tSCHEMAS")
	for _, n := range c.NodeTypes() {
		fmt.Fprintf(tw, "%s\t%s@%s\t%s\t%s\n", n.TypeID, n.Pack, n.PackVersion, cmpDash(n.Role), schemaMarks(n))
	}
	return tw.Flush()
}

// Summary is the line under the table: where the catalog came from and
// what it holds.
func (c *Catalog) Summary() string {
	c.ready()
	agents := 0
	for _, p := range c.Packs {
		agents += len(p.AgentIDs)
	}
	return fmt.Sprintf("%s: %d packs, %d node types, %d agents", c.Source, len(c.Packs), len(c.NodeTypes()), agents)
}

// schemaMarks names the schemas a node type declares, "-" for none.
func schemaMarks(n *NodeType) string {
	var have []string
	for _, s := range []struct{ name, ref string }{{"config", n.ConfigSchema}, {"input", n.InputSchema}, {"output", n.OutputSchema}} {
		if s.ref != "" {
			have = append(have, s.name)
		}
	}
	if len(have) == 0 {
		return "-"
	}
	return strings.Join(have, ",")
}

// cmpDash is s, or "-" for an empty cell.
func cmpDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// listJSON is the --format json shape.
type listJSON struct {
	Source string     `json:"source"`
	Packs  []packJSON `json:"packs"`
}

type packJSON struct {
	Name      string         `json:"name"`
	Version   string         `json:"version,omitempty"`
	Kind      string         `json:"kind,omitempty"`
	NodeTypes []nodeTypeJSON `json:"nodeTypes,omitempty"`
	AgentIDs  []string       `json:"agentIds,omitempty"`
}

type nodeTypeJSON struct {
	TypeID       string   `json:"typeId"`
	Version      string   `json:"version,omitempty"`
	Role         string   `json:"role,omitempty"`
	Capabilities []string `json:"capabilities,omitempty"`
	ConfigSchema string   `json:"configSchemaRef,omitempty"`
	InputSchema  string   `json:"inputSchemaRef,omitempty"`
	OutputSchema string   `json:"outputSchemaRef,omitempty"`
}

// WriteJSON writes the catalog as `wop pack catalog --format json` does:
// its source, and each pack with its node types and agents.
func (c *Catalog) WriteJSON(w io.Writer) error {
	c.ready()
	out := listJSON{Source: c.Source, Packs: []packJSON{}}
	for _, p := range c.Packs {
		pj := packJSON{Name: p.Name, Version: p.Version, Kind: p.Kind, AgentIDs: p.AgentIDs}
		for _, id := range p.TypeIDs {
			if n, ok := c.NodeType(id); ok && n.Pack == p.Name {
				pj.NodeTypes = append(pj.NodeTypes, nodeTypeJSON{n.TypeID, n.Version, n.Role, n.Capabilities, n.ConfigSchema, n.InputSchema, n.OutputSchema})
			}
		}
		out.Packs = append(out.Packs, pj)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
