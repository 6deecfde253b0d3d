// Package cachecmd implements `wop cache ...`: where wop's cache lives, and
// emptying it.
package cachecmd

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"
	"github.com/wop-cli/wop/cmd/wop/internal/cli"
)

// parts are the folders wop writes under its cache root: lint results
// (internal/lintcache), --catalog documents (internal/catalog), registry
// documents `lint --against` fetched, the SVG helper's compiled Graphviz
// (internal/graphviz; old wazero versions' folders too) and the editor's
// chain drawings (internal/lsp). Clean removes only these, never the root
// itself: WOP_CACHE_DIR may name a folder shared with other tools.
var parts = []string{"lint", "catalog", "registry", "graphviz", "graphs"}

// NewCmd returns the `wop cache` group.
func NewCmd(env *cli.Env) *cobra.Command {
	cmd := &cobra.Command{Use: "cache", Short: "Show or empty wop's cache", Args: cobra.ArbitraryArgs, RunE: cli.GroupRunE}
	cmd.AddCommand(newDirCmd(env), newCleanCmd(env))
	return cmd
}

func newDirCmd(env *cli.Env) *cobra.Command {
	return &cobra.Command{
		Use:   "dir",
		Short: "Print the cache directory",
		Long: `Print the directory wop caches lint results and fetched documents in:
$WOP_CACHE_DIR, or wop under the user cache directory (~/.cache/wop on
Linux). Prints "off" when caching is off (WOP_CACHE_DIR=off).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := env.CacheDir
			if dir == "" {
				dir = "off"
			}
			fmt.Fprintln(env.Out, dir)
			return nil
		},
	}
}

func newCleanCmd(env *cli.Env) *cobra.Command {
	return &cobra.Command{
		Use:   "clean",
		Short: "Remove everything wop has cached",
		Long:  cli.LongHelp(helpFiles, "clean"),
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if env.CacheDir == "" {
				fmt.Fprintln(env.ErrOut, "caching is off (WOP_CACHE_DIR=off): nothing to clean")
				return nil
			}
			files, bytes, err := clean(env.CacheDir)
			if err != nil {
				return err
			}
			fmt.Fprintf(env.ErrOut, "removed %d files (%d KB) from %s\n", files, (bytes+1023)/1024, env.CacheDir)
			return nil
		},
	}
}

// clean removes root's parts, counting the files it removes.
func clean(root string) (files int, size int64, err error) {
	for _, part := range parts {
		dir := filepath.Join(root, part)
		_ = filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil // absent or unreadable: RemoveAll says which
			}
			files++
			if info, err := d.Info(); err == nil {
				size += info.Size()
			}
			return nil
		})
		if err := os.RemoveAll(dir); err != nil {
			return files, size, fmt.Errorf("cache clean: %w", err)
		}
	}
	return files, size, nil
}
