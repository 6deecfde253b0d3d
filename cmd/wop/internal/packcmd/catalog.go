package packcmd

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"
	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/catalog"
	"github.com/wop-cli/wop/internal/lintrun"
	"github.com/wop-cli/wop/internal/suggest"
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
			if err := suggest.FlagValue("--format", o.format, "text", "json"); err != nil {
				return err
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
		return c.WriteJSON(o.env.Out)
	}
	if err := c.WriteTable(o.env.Out); err != nil {
		return err
	}
	fmt.Fprintln(o.env.ErrOut, c.Summary())
	return nil
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
	if len(s.Catalogs) == 1 {
		return s.Catalogs[0], nil
	}
	if len(s.Catalogs) > 1 {
		return "", cli.Usagef(".wop.yaml names %d catalogs; name the one to list", len(s.Catalogs))
	}
	if root := catalog.FindCheckout(o.env.WorkDir); root != "" {
		return root, nil
	}
	return "", cli.Usagef("no catalog: name one (a registry checkout, a folder of packs or an index file), set catalog: in .wop.yaml, or run inside a registry checkout")
}
