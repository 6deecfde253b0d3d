package packcmd

import (
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/lint"
)

func newRulesCmd(env *cli.Env) *cobra.Command {
	var format, profile string
	cmd := &cobra.Command{
		Use:   "rules",
		Short: "List every lint rule with its id, default severity and purpose",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
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
					fmt.Fprintf(tw, "%s\t%s\t%s%s\n", r.ID, r.Severity, summaryOf(r), fixMark(r.ID))
				}
				fmt.Fprintf(tw, "\nRun 'wop pack lint --explain ID' for why a rule exists and how to fix it;\n'wop pack lint --fix' applies the fixes of rules marked (fixable).\n")
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

// summaryOf is a rule's summary, led by a deprecation note when it has one.
func summaryOf(r diag.RuleInfo) string {
	switch {
	case r.Deprecated != "" && r.ReplacedBy != "":
		return fmt.Sprintf("DEPRECATED, use %s: %s", r.ReplacedBy, r.Summary)
	case r.Deprecated != "":
		return "DEPRECATED: " + r.Summary
	}
	return r.Summary
}

func runExplain(env *cli.Env, id string) error { return explain(env, lint.All(), id) }

// explain prints rule id of rules: summary, why, the bad example, what wop
// says about it and the fix; for a deprecated rule, what replaced it.
func explain(env *cli.Env, rules lint.Rules, id string) error {
	r := rules.Lookup(id)
	if r == nil {
		return cli.UnknownRule(id, ruleIDs())
	}
	if r.Deprecated != "" {
		_, err := fmt.Fprintf(env.Out, "%s (deprecated)\n%s\n\n%s\n", r.ID, summaryOf(r.Info()), r.Deprecated)
		return err
	}
	doc, err := lint.Explain(id)
	if err != nil {
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s)\n%s\nSince wop %s.\n\n%s\n", r.ID, r.Severity, r.Summary, r.Since, strings.TrimSpace(doc.Prose))
	section := func(title string, files []lint.ExampleFile) {
		fmt.Fprintf(&b, "\n%s:\n", title)
		for _, f := range files {
			fmt.Fprintf(&b, "  -- %s --\n", f.Name)
			for _, line := range strings.Split(strings.TrimRight(f.Data, "\n"), "\n") {
				fmt.Fprintf(&b, "  %s\n", line)
			}
		}
	}
	section("Bad", doc.Bad)
	fmt.Fprintf(&b, "\nwop says:\n")
	for _, line := range strings.Split(strings.TrimRight(doc.Want, "\n"), "\n") {
		fmt.Fprintf(&b, "  %s\n", line)
	}
	section("Fixed", doc.Good)
	_, err = fmt.Fprint(env.Out, b.String())
	return err
}
