package cli

import (
	"fmt"
	"io/fs"
	"strings"

	"github.com/spf13/cobra"
)

// GuardHelp makes root's help command refuse a word that names no command
// or help topic: cobra would print the root help and exit 0, so a typo in
// a CI script (`wop help pakc lint`) passed unnoticed. `wop help lnt` is
// now the usage error `wop lnt` is, with the same did-you-mean.
func GuardHelp(root *cobra.Command) {
	root.InitDefaultHelpCmd()
	for _, c := range root.Commands() {
		if c.Name() == "help" {
			// Keep cobra's command (its completion of command names), swap
			// only the body.
			c.Run, c.RunE = nil, helpRunE
		}
	}
}

func helpRunE(c *cobra.Command, args []string) error {
	target, rest, err := c.Root().Find(args)
	if err != nil {
		return &UsageError{Err: err}
	}
	switch {
	case len(rest) > 0 && target.IsAdditionalHelpTopicCommand():
		return Usagef("unknown help topic %q: %s is a help topic without subtopics; see '%s help %s'",
			strings.Join(args, " "), target.Name(), c.Root().CommandPath(), target.Name())
	case len(rest) > 0 && !target.HasSubCommands():
		return Usagef("unknown help topic %q: '%s' has no subcommands; see '%s help %s'",
			strings.Join(args, " "), target.CommandPath(), c.Root().CommandPath(), subPath(target))
	case len(rest) > 0:
		return UnknownCommand(target, rest[0])
	}
	target.InitDefaultHelpFlag()
	target.InitDefaultVersionFlag()
	return target.Help()
}

// NewExitCodesTopic is the help topic `wop help exit-codes`, rendered from
// ExitCodeTable so the table is written once.
func NewExitCodesTopic() *cobra.Command {
	var b strings.Builder
	b.WriteString("wop's exit codes are part of its interface: CI scripts branch on them.\n\n")
	for _, row := range ExitCodeTable() {
		fmt.Fprintf(&b, "%4d  %s\n", row.Code, wrap(row.Meaning, 70, "      "))
	}
	return &cobra.Command{
		Use:   "exit-codes",
		Short: "What each exit code means",
		Long:  strings.TrimSuffix(b.String(), "\n"),
	}
}

// wrap breaks text into lines of at most width bytes at spaces, indenting
// every line after the first.
func wrap(text string, width int, indent string) string {
	var b strings.Builder
	n := 0
	for i, word := range strings.Fields(text) {
		switch {
		case i == 0:
		case n+1+len(word) > width:
			b.WriteString("\n" + indent)
			n = 0
		default:
			b.WriteByte(' ')
			n++
		}
		b.WriteString(word)
		n += len(word)
	}
	return b.String()
}

// LongHelp is a command's long help text, kept in help/NAME.txt beside the
// command (files, embedded): the file without its final newline, which
// cobra adds.
func LongHelp(files fs.FS, name string) string {
	b, err := fs.ReadFile(files, "help/"+name+".txt")
	if err != nil {
		panic(err) // embedded at build time: a missing file is a bug in wop
	}
	return strings.TrimSuffix(string(b), "\n")
}
