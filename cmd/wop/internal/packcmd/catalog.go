package packcmd

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/wop-cli/wop/internal/lintrun"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/catalog"
)

type catalogOptions struct {
	env     *cli.Env
	format  string
	offline bool
	source  string // the argument; "" = configured or checkout
}

func newCatalogCmd(env *cli.Env) *cobra.Command {
	o := &catalogOptions{env: env}
	cmd := &cobra.Command{
		Use:   "catalog [CATALOG]",
		Short: "List the packs and node types a catalog knows",
		Long:  cli.LongHelp(helpFiles, "catalog"),
		Example: `  wop pack catalog ../registry
  wop pack catalog --format json`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				o.source = args[0]
			}
			if o.format != "text" && o.format != "json" {
				return cli.Usagef("--format %q: want text or json", o.format)
			}
			return runCatalog(cmd.Context(), o)
		},
	}
	cmd.Flags().StringVar(&o.format, "format", "text", "output format: text or json")
	cmd.Flags().BoolVar(&o.offline, "offline", false, "read a URL catalog from the cache only")
	return cmd
}

func runCatalog(ctx context.Context, o *catalogOptions) error {
	path, err := catalogSource(o)
	if err != nil {
		return err
	}
	c, err := lintrun.NewCatalogs(o.offline, false).Load(ctx, o.env.Lint(), path, "")
	if err != nil {
		return err
	}
	if o.format == "json" {
		return printCatalogJSON(o.env, c)
	}
	return printCatalogText(o.env, c)
}

// catalogSource is the argument, else .wop.yaml's catalog:, else the
// registry checkout the working directory is in.
func catalogSource(o *catalogOptions) (string, error) {
	if o.source != "" {
		return lintrun.CatalogSrc(o.env.Lint(), o.source), nil
	}
	// The .wop.yaml lint would use here, found with the same trust rules.
	s, err := lintrun.SettingsFor(o.env.Lint(), "", o.env.WorkDir, lintrun.LintOptions(o.env.Lint(), true), lintrun.NewSettingsMemo(), nil)
	if err != nil {
		return "", err
	}
	if s.Catalog != "" {
		return s.Catalog, nil
	}
	if root := catalog.FindCheckout(o.env.WorkDir); root != "" {
		return root, nil
	}
	return "", cli.Usagef("no catalog: name one (a registry checkout, a folder of packs or an index file), set catalog: in .wop.yaml, or run inside a registry checkout")
}

func schemaMarks(n *catalog.NodeType) string {
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

func printCatalogText(env *cli.Env, c *catalog.Catalog) error {
	tw := tabwriter.NewWriter(env.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TYPEID\tPACK\tROLE\tSCHEMAS")
	for _, n := range c.NodeTypes() {
		fmt.Fprintf(tw, "%s\t%s@%s\t%s\t%s\n", n.TypeID, n.Pack, n.PackVersion, cmpDash(n.Role), schemaMarks(n))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	agents := 0
	for _, p := range c.Packs {
		agents += len(p.AgentIDs)
	}
	fmt.Fprintf(env.ErrOut, "%s: %d packs, %d node types, %d agents\n", c.Source, len(c.Packs), len(c.NodeTypes()), agents)
	return nil
}

func cmpDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

type catalogJSON struct {
	Source string            `json:"source"`
	Packs  []catalogPackJSON `json:"packs"`
}

type catalogPackJSON struct {
	Name      string                `json:"name"`
	Version   string                `json:"version,omitempty"`
	Kind      string                `json:"kind,omitempty"`
	NodeTypes []catalogNodeTypeJSON `json:"nodeTypes,omitempty"`
	AgentIDs  []string              `json:"agentIds,omitempty"`
}

type catalogNodeTypeJSON struct {
	TypeID       string   `json:"typeId"`
	Version      string   `json:"version,omitempty"`
	Role         string   `json:"role,omitempty"`
	Capabilities []string `json:"capabilities,omitempty"`
	ConfigSchema string   `json:"configSchemaRef,omitempty"`
	InputSchema  string   `json:"inputSchemaRef,omitempty"`
	OutputSchema string   `json:"outputSchemaRef,omitempty"`
}

func printCatalogJSON(env *cli.Env, c *catalog.Catalog) error {
	out := catalogJSON{Source: c.Source, Packs: []catalogPackJSON{}}
	for _, p := range c.Packs {
		pj := catalogPackJSON{Name: p.Name, Version: p.Version, Kind: p.Kind, AgentIDs: p.AgentIDs}
		for _, id := range p.TypeIDs {
			if n, ok := c.NodeType(id); ok && n.Pack == p.Name {
				pj.NodeTypes = append(pj.NodeTypes, catalogNodeTypeJSON{n.TypeID, n.Version, n.Role, n.Capabilities, n.ConfigSchema, n.InputSchema, n.OutputSchema})
			}
		}
		out.Packs = append(out.Packs, pj)
	}
	enc := json.NewEncoder(env.Out)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
