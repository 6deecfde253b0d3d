package packcmd

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/rogpeppe/go-internal/diff"
	"github.com/spf13/cobra"
	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/atomicfile"
	"github.com/wop-cli/wop/internal/catalog"
	"github.com/wop-cli/wop/internal/jsonpos"
	"github.com/wop-cli/wop/internal/migrate"
	"github.com/wop-cli/wop/internal/pack"
	"github.com/wop-cli/wop/internal/safefile"
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
		Long: `Rewrite each pack directory's pack.json for OpenWOP v2, keeping its
formatting: kind set, engines.openwop given the v2 ceiling (">=x <3.0.0"),
a hand-written signing block deleted (the build writes the v2 one), v1-era
peer-dependency aliases renamed to their capability family with the facets
in peerDependenciesMeta, each chain node reference and external sub-chain
pinned to the exact version the catalog holds ("core.ai.callPrompt@1.0.0";
the catalog is --catalog, else .wop.yaml's catalog:, else the registry
checkout the pack sits in). What it cannot decide is listed, not guessed;
lint the result with 'wop pack lint'. With --diff nothing is written.

Exit status: 0 migrated (or nothing to do); 1 something was left for you;
2 bad usage or input that cannot be read.`,
		Example: `  wop pack migrate --to v2 --diff
  wop pack migrate --to v2 --catalog https://packs.openwop.dev packs/*`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.to == "" { // checked here, not by cobra's required flag: that error exits 1
				return cli.Usagef("--to is required: wop pack migrate --to v2")
			}
			if o.to != "v2" {
				return cli.Usagef("--to %q: the only target is v2", o.to)
			}
			if len(args) == 0 {
				args = []string{"."}
			}
			catalogs := catalogLoader{ctx: cmd.Context(), env: env, offline: o.offline, announce: true, open: map[string]*catalog.Catalog{}}
			left := 0
			for _, dir := range args {
				n, err := migrateDir(o, &catalogs, dir)
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
func migrateDir(o *migrateOptions, catalogs *catalogLoader, dir string) (int, error) {
	env := o.env
	pk, err := loadPack(env, dir)
	if err != nil {
		return 0, err
	}
	if pk.Archive != nil {
		return 0, cli.Usagef("%s is an archive; migrate the source directory and build it again", dir)
	}
	path := filepath.Join(pk.Dir, pack.ManifestName)
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		// Replacing it would either fail half-way (after a catalog
		// download) or rewrite a file outside the pack; refuse up front.
		return 0, cli.Usagef("%s is not a regular file (%s); migrate edits the pack's own pack.json: replace it with a copy of what it points to, or migrate the pack it belongs to", pk.Path(pack.ManifestName), safefile.Kind(fi.Mode()))
	}
	src, err := pk.ReadFile(pack.ManifestName) // within the manifest ceiling, never through a link
	if tl := (*pack.FileTooLargeError)(nil); errors.As(err, &tl) {
		return 0, cli.Usagef("%s is %d bytes, over the %d a registry accepts (manifest-too-large): move prompt bodies into prompts/*.md with systemPromptRef, then migrate", pk.Path(pack.ManifestName), tl.Size, tl.Max)
	}
	if err != nil {
		return 0, cli.Usagef("%s: %v", pk.Path(pack.ManifestName), withoutPath(err))
	}
	cat, err := migrateCatalog(o, catalogs, pk.Dir)
	if err != nil {
		return 0, err
	}
	out, notes, err := migrate.ToV2(src, migrate.Options{Catalog: cat})
	if se := (*migrate.SourceError)(nil); errors.As(err, &se) {
		return 0, cli.Usagef("%s:%v", pk.Path(pack.ManifestName), se) // pack.json:line:col: ...
	}
	if err != nil {
		return 0, cli.Usagef("%s: %v", pk.Path(pack.ManifestName), err)
	}
	// Each note's line and column are in the file as it stands afterwards:
	// the migrated one, or with --diff the one on disk.
	after := out
	if o.showDiff {
		after = src
	}
	doc, err := jsonpos.Parse(after)
	if err != nil {
		return 0, fmt.Errorf("migrating %s produced invalid JSON (a bug in wop): %w", path, err)
	}
	for _, n := range notes {
		at := doc.Locate(n.Pointer)
		fmt.Fprintf(env.ErrOut, "%s:%d:%d: %s: %s\n", pk.Path(pack.ManifestName), at.Line, at.Column, n.Pointer, n.Message)
	}
	switch {
	case string(out) == string(src):
		if len(notes) == 0 {
			fmt.Fprintf(env.ErrOut, "%s is already v2: nothing to change\n", pk.Path(pack.ManifestName))
		}
	case o.showDiff:
		_, err = env.Out.Write(diff.Diff("a/"+pk.Path(pack.ManifestName), src, "b/"+pk.Path(pack.ManifestName), out))
	default:
		if err := atomicfile.Replace(path, out); err != nil {
			return len(notes), fmt.Errorf("write %s: %w", pk.Path(pack.ManifestName), err)
		}
		fmt.Fprintf(env.ErrOut, "migrated %s to v2\n", pk.Path(pack.ManifestName))
	}
	return len(notes), err
}

// migrateCatalog opens the catalog chain references are pinned from, as
// lint finds it: --catalog, else the pack's .wop.yaml catalog:, else the
// registry checkout it sits in. nil when there is none.
func migrateCatalog(o *migrateOptions, catalogs *catalogLoader, dir string) (migrate.Catalog, error) {
	var c *catalog.Catalog
	var err error
	if o.catalog != "" {
		c, err = catalogs.load(catalogSrc(o.env, o.catalog), "--catalog")
	} else {
		var s *packSettings
		if s, err = settingsFor(o.env, "", dir, lintOpts(o.env, true), newSettingsMemo()); err != nil {
			return nil, err
		}
		c, err = catalogs.forPack(s.catalogs, dir)
	}
	if err != nil || c == nil {
		return nil, err
	}
	return catalogPins{c}, nil
}

// catalogPins answers migrate's version questions from a catalog.
type catalogPins struct{ c *catalog.Catalog }

func (p catalogPins) NodeVersion(typeID string) (string, bool) {
	t, ok := p.c.NodeType(typeID)
	if !ok {
		return "", false
	}
	return t.Version, true
}

func (p catalogPins) PackVersion(name string) (string, bool) {
	for _, pk := range p.c.Packs {
		if pk.Name == name {
			return pk.Version, true
		}
	}
	return "", false
}
