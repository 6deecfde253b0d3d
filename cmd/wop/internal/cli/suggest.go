package cli

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/wop-cli/wop/internal/suggest"
)

// UnknownCommand is the usage error for a word that names no subcommand of
// group, with a did-you-mean: the nearest subcommand of group, else a
// command of that name (or near it) elsewhere in the tree, so that
// `wop lint` points at `wop pack lint`.
func UnknownCommand(group *cobra.Command, word string) error {
	msg := fmt.Sprintf("unknown command %q for %q", word, group.CommandPath())
	if s := suggestCommand(group, word); s != "" {
		return &UsageError{Err: fmt.Errorf("%s; did you mean '%s'?", msg, s)}
	}
	return Usagef("%s; see '%s --help'", msg, group.CommandPath())
}

func suggestCommand(group *cobra.Command, word string) string {
	var names []string
	for _, c := range group.Commands() {
		// A help topic (exit-codes) is a command name too: 'wop exit-code'
		// should find it.
		if c.IsAvailableCommand() || c.IsAdditionalHelpTopicCommand() {
			names = append(names, c.Name())
		}
	}
	// Elsewhere in the tree: every command at the smallest distance, by
	// full path ("wop agf lint' or 'wop pack lint"); the group's own
	// nearest command only when none elsewhere is nearer ('wop lnt' means
	// lint, not lsp).
	var paths, pathNames []string
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			if sub.IsAvailableCommand() {
				paths, pathNames = append(paths, sub.CommandPath()), append(pathNames, sub.Name())
				walk(sub)
			}
		}
	}
	walk(group.Root())
	closest := uniq(suggest.Closest(word, pathNames, 2))
	if near, ok := suggest.Nearest(word, names, 2); ok && (len(closest) == 0 || slices.Contains(closest, near)) {
		return group.CommandPath() + " " + near
	}
	var found []string
	for _, near := range closest {
		for i, n := range pathNames {
			if n == near {
				found = append(found, paths[i])
			}
		}
	}
	return strings.Join(found, "' or '")
}

func uniq(s []string) []string {
	slices.Sort(s)
	return slices.Compact(s)
}

// FlagError turns a flag parsing error into a usage error, suggesting the
// nearest flag for an unknown one.
func FlagError(c *cobra.Command, err error) error {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "unknown flag: --"); ok {
		var names []string
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if !f.Hidden {
				names = append(names, f.Name)
			}
		})
		if near, ok := suggest.Nearest(name, names, 2); ok {
			return &UsageError{Err: fmt.Errorf("%w; did you mean --%s?", err, near)}
		}
	}
	return &UsageError{Err: fmt.Errorf("%w\nsee '%s --help'", err, c.CommandPath())}
}

// subPath is c's path below the root ("pack lint"), for a command line
// that starts with the root's own (which is "npx wop" when npm started wop).
func subPath(c *cobra.Command) string {
	return strings.TrimPrefix(c.CommandPath(), c.Root().CommandPath()+" ")
}

// GroupRunE makes a command group refuse an unknown subcommand (cobra would
// print help and exit 0) and show help when called bare.
func GroupRunE(cmd *cobra.Command, args []string) error {
	if len(args) > 0 && args[0] == "help" && cmd.HasParent() {
		// `wop pack help lint`: help is a command of the root only.
		topic := strings.Join(append([]string{subPath(cmd)}, args[1:]...), " ")
		return Usagef("unknown command \"help\" for %q; did you mean '%s help %s'?", cmd.CommandPath(), cmd.Root().CommandPath(), topic)
	}
	if len(args) > 0 {
		return UnknownCommand(cmd, args[0])
	}
	return cmd.Help()
}
