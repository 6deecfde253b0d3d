package cli

import (
	"strings"

	"github.com/spf13/cobra"
)

// CompleteValues makes shell completion offer values for a flag instead of
// file names. values is called at completion time only, so a list that
// costs something (rule ids, schema enums) is never built for a normal run.
func CompleteValues(cmd *cobra.Command, flag string, values func() []string) {
	_ = cmd.RegisterFlagCompletionFunc(flag, func(_ *cobra.Command, _ []string, prefix string) ([]string, cobra.ShellCompDirective) {
		var out []string
		for _, v := range values() {
			if strings.HasPrefix(v, prefix) {
				out = append(out, v)
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	})
}

// Fixed is a values function for CompleteValues over a fixed list.
func Fixed(values ...string) func() []string {
	return func() []string { return values }
}
