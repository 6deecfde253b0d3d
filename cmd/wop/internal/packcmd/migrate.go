package packcmd

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/rogpeppe/go-internal/diff"
	"github.com/spf13/cobra"
	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/atomicfile"
	"github.com/wop-cli/wop/internal/migrate"
	"github.com/wop-cli/wop/internal/pack"
)

func newMigrateCmd(env *cli.Env) *cobra.Command {
	var to string
	var showDiff bool
	cmd := &cobra.Command{
		Use:   "migrate [DIR...] --to v2 [--diff]",
		Short: "Rewrite a v1 pack's manifest for the v2 registry tree",
		Long: `Rewrite each pack directory's pack.json for OpenWOP v2, keeping its
formatting: kind set, engines.openwop given the v2 ceiling (">=x <3.0.0"),
a hand-written signing block deleted (the build writes the v2 one), v1-era
peer-dependency aliases renamed to their capability family with the facets
in peerDependenciesMeta. What it cannot decide is listed, not guessed; lint
the result with 'wop pack lint'. With --diff nothing is written.

Exit status: 0 migrated (or nothing to do); 1 something was left for you;
2 bad usage or input that cannot be read.`,
		Example: `  wop pack migrate --to v2 --diff
  wop pack migrate --to v2 packs/*`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if to != "v2" {
				return cli.Usagef("--to %q: the only target is v2", to)
			}
			if len(args) == 0 {
				args = []string{"."}
			}
			left := 0
			for _, dir := range args {
				n, err := migrateDir(env, dir, showDiff)
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
	cmd.Flags().StringVar(&to, "to", "", "the spec tree to migrate to: v2")
	cmd.Flags().BoolVar(&showDiff, "diff", false, "print the change as a unified diff; write nothing")
	_ = cmd.MarkFlagRequired("to")
	return cmd
}

// migrateDir migrates one pack directory and returns how many things it
// left for a person (printed on stderr).
func migrateDir(env *cli.Env, dir string, showDiff bool) (int, error) {
	pk, err := loadPack(env, dir)
	if err != nil {
		return 0, err
	}
	if pk.Archive != nil {
		return 0, cli.Usagef("%s is an archive; migrate the source directory and build it again", dir)
	}
	path := filepath.Join(pk.Dir, pack.ManifestName)
	src, err := os.ReadFile(path)
	if err != nil {
		return 0, cli.Usagef("%s: %v", pk.Path(pack.ManifestName), withoutPath(err))
	}
	out, notes, err := migrate.ToV2(src)
	if err != nil {
		return 0, cli.Usagef("%s: %v", pk.Path(pack.ManifestName), err)
	}
	for _, n := range notes {
		fmt.Fprintf(env.ErrOut, "%s: %s: %s\n", pk.Path(pack.ManifestName), n.Pointer, n.Message)
	}
	switch {
	case showDiff:
		_, err = env.Out.Write(diff.Diff("a/"+pk.Path(pack.ManifestName), src, "b/"+pk.Path(pack.ManifestName), out))
	case string(out) != string(src):
		if err := atomicfile.Replace(path, out); err != nil {
			return len(notes), fmt.Errorf("write %s: %w", path, err)
		}
		fmt.Fprintf(env.ErrOut, "migrated %s to v2\n", pk.Path(pack.ManifestName))
	}
	return len(notes), err
}
