package packcmd

import (
	"encoding/json"
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/lint"
	"github.com/wop-cli/wop/internal/lintrun"
	"github.com/wop-cli/wop/internal/suggest"
)

func newRulesCmd(env *cli.Env) *cobra.Command {
	var format, profile string
	cmd := &cobra.Command{
		Use:   "rules",
		Short: "List every lint rule with its id, default severity and purpose",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := suggest.FlagValue("--format", format, "text", "json"); err != nil {
				return err
			}
			p, err := lint.FindRuleProfile(profile)
			if err != nil {
				return cli.Usagef("--profile: %v", err)
			}
			infos := lint.InfosFor(p)
			switch format {
			case "text":
				tw := tabwriter.NewWriter(env.Out, 0, 4, 2, ' ', 0)
				fmt.Fprintln(tw, "ID\tSEVERITY\tSUMMARY")
				for _, r := range infos {
					// Command lines as the user runs wop, as --explain prints them; json keeps wop's own words.
					fmt.Fprintf(tw, "%s\t%s\t%s%s\n", r.ID, r.Severity, env.Invoked.Mentions(lintrun.Summary(r)), fixMark(r.ID))
				}
				fmt.Fprintf(tw, "\nRun '%s' for why a rule exists and how to fix it;\n'%s' applies the fixes of rules marked (fixable).\n",
					env.Invoked.Cmd("pack lint --explain ID"), env.Invoked.Cmd("pack lint --fix"))
				return tw.Flush()
			case "json":
				type rule struct {
					ID         string `json:"id"`
					Severity   string `json:"severity"`
					Summary    string `json:"summary"`
					Since      string `json:"since"`
					Deprecated string `json:"deprecated,omitempty"`
					ReplacedBy string `json:"replacedBy,omitempty"`
					Fixable    bool   `json:"fixable"`
				}
				var out []rule
				for _, r := range infos {
					out = append(out, rule{r.ID, r.Severity.String(), r.Summary, r.Since, r.Deprecated, r.ReplacedBy, fixMark(r.ID) != ""})
				}
				enc := json.NewEncoder(env.Out)
				enc.SetIndent("", "  ")
				return enc.Encode(out)
			}
			return cli.Usagef("--format %q: want text or json", format)
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "output format: text or json")
	cmd.Flags().StringVar(&profile, "profile", "", "show the severities under a rule profile (registry)")
	cli.CompleteValues(cmd, "format", cli.Fixed("text", "json"))
	cli.CompleteValues(cmd, "profile", cli.Fixed(lint.RuleProfileNames()...))
	return cmd
}

// fixMark marks the summary of a rule whose findings lint --fix can fix.
func fixMark(id string) string {
	if r := lint.Lookup(id); r != nil && r.Fix != nil {
		return " (fixable)"
	}
	return ""
}

func runExplain(env *cli.Env, id string) error { return explain(env, lint.All(), id) }

// explain prints lintrun.Explain's text for rule id of rules.
func explain(env *cli.Env, rules lint.Rules, id string) error {
	text, found, err := lintrun.Explain(rules, id, env.Invoked)
	if !found {
		return suggest.UnknownRule(id, ruleIDs(), env.Invoked.Cmd("pack rules"))
	}
	if err != nil {
		return err
	}
	_, err = fmt.Fprint(env.Out, text)
	return err
}

// ruleIDs lists every rule id, for completion and did-you-mean.
func ruleIDs() []string {
	var ids []string
	for _, info := range lint.Infos() {
		ids = append(ids, info.ID)
	}
	return ids
}
