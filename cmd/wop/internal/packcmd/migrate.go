package packcmd

import (
	"context"

	"github.com/spf13/cobra"
	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/catalog"
	"github.com/wop-cli/wop/internal/lintrun"
	"github.com/wop-cli/wop/internal/migrate"
)

// migrateOptions are wop pack migrate's flags.
type migrateOptions struct {
	env      *cli.Env
	to       string
	showDiff bool
	catalog  string
	offline  bool
}

func newMigrateCmd(env *cli.Env) *cobra.Command {
	o := &migrateOptions{env: env}
	cmd := &cobra.Command{
		Use:   "migrate [DIR...] --to v2 [--diff]",
		Short: "Rewrite a v1 pack's manifest for the v2 registry tree",
		Long:  cli.LongHelp(helpFiles, "migrate"),
		Example: `  wop pack migrate --to v2 --diff
  wop pack migrate --to v2 --catalog https://packs.openwop.dev packs/*`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.to == "" { // checked here, not by cobra's required flag: that error exits 1
				return cli.Usagef("--to is required: %s", env.Invoked.Cmd("pack migrate --to v2"))
			}
			if o.to != "v2" {
				return cli.Usagef("--to %q: the only target is v2", o.to)
			}
			if len(args) == 0 {
				args = []string{"."}
			}
			catalogs := lintrun.NewCatalogs(o.offline, true)
			left := 0
			for _, dir := range args {
				n, err := migrateDir(cmd.Context(), o, catalogs, dir)
				if err != nil {
					return err
				}
				left += n
			}
			if left > 0 {
				return cli.ErrFindings // each was printed with its place
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&o.to, "to", "", "the spec tree to migrate to: v2")
	cmd.Flags().BoolVar(&o.showDiff, "diff", false, "print the change as a unified diff; write nothing")
	cmd.Flags().StringVar(&o.catalog, "catalog", "", "where chain references are pinned from: a registry URL, a registry checkout, a folder of packs or an index file")
	cmd.Flags().BoolVar(&o.offline, "offline", false, "read a URL catalog from the cache only")
	return cmd
}

// migrateDir migrates one pack directory and returns how many things it
// left for a person (printed on stderr).
func migrateDir(ctx context.Context, o *migrateOptions, catalogs *lintrun.Catalogs, dir string) (int, error) {
	env := o.env
	pk, err := loadPack(env, dir)
	if err != nil {
		return 0, err
	}
	if pk.Archive != nil {
		return 0, cli.Usagef("%s is an archive; migrate the source directory and build it again", dir)
	}
	res, err := migrate.Read(pk)
	if err != nil {
		return 0, &cli.UsageError{Err: err}
	}
	cat, err := migrateCatalog(ctx, o, catalogs, pk.Dir)
	if err != nil {
		return 0, err
	}
	if err := res.ToV2(migrate.Options{Catalog: cat}); err != nil {
		return 0, &cli.UsageError{Err: err}
	}
	return res.Finish(o.showDiff, env.Out, env.ErrOut)
}

// migrateCatalog opens the catalog chain references are pinned from, as
// lint finds it: --catalog, else the pack's .wop.yaml catalog:, else the
// registry checkout it sits in. nil when there is none.
func migrateCatalog(ctx context.Context, o *migrateOptions, catalogs *lintrun.Catalogs, dir string) (migrate.Catalog, error) {
	var c *catalog.Catalog
	var err error
	if o.catalog != "" {
		c, err = catalogs.Load(ctx, o.env.Lint(), lintrun.CatalogSrc(o.env.Lint(), o.catalog), "--catalog")
	} else {
		var s *lintrun.Settings
		if s, err = lintrun.SettingsFor(o.env.Lint(), "", dir, lintrun.LintOptions(o.env.Lint(), true), lintrun.NewSettingsMemo(), nil); err != nil {
			return nil, err
		}
		c, err = catalogs.ForPack(ctx, o.env.Lint(), s.Catalogs, dir)
	}
	if err != nil || c == nil {
		return nil, err
	}
	return migrate.Pins(c), nil
}
