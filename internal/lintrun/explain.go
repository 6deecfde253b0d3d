package lintrun

import (
	"fmt"
	"strings"

	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/invocation"
	"github.com/wop-cli/wop/internal/lint"
)

// Explain is `wop pack lint --explain id` over rules: summary, why, the bad
// example, what wop says about it and the fix; for a deprecated rule, what
// replaced it. found is false for an id rules do not hold. The command
// lines in it start as invoked runs wop ("npx wop pack build"); the
// example files are shown as they are. docs/rules.md, made from the same
// parts by lint, keeps plain wop.
func Explain(rules lint.Rules, id string, invoked invocation.Name) (text string, found bool, err error) {
	return explain(rules, id, "", invoked)
}

// ExplainFinding is Explain for a hover on finding d. The rule has one
// example, about one property; shown beside a finding on another (an enum
// error on modelClass, the example a misspelled toolAllowlist) it misleads,
// so it is kept only when what wop says about it names d's property, and
// otherwise replaced by a line pointing at --explain.
func ExplainFinding(rules lint.Rules, d diag.Diagnostic) (text string, found bool, err error) {
	return explain(rules, d.Rule, pointerProperty(d.Pointer), "")
}

// pointerProperty is the last member name of an RFC 6901 pointer
// ("/agents/0/modelClass" gives "modelClass"); "" when it has none.
func pointerProperty(ptr string) string {
	segs := strings.Split(ptr, "/")
	for i := len(segs) - 1; i > 0; i-- {
		if seg := segs[i]; seg != "" && strings.Trim(seg, "0123456789") != "" {
			return strings.NewReplacer("~1", "/", "~0", "~").Replace(seg)
		}
	}
	return ""
}

// explain writes a rule's explanation; with property set, the example
// only when it is about that property.
func explain(rules lint.Rules, id, property string, invoked invocation.Name) (text string, found bool, err error) {
	r := rules.Lookup(id)
	if r == nil {
		return "", false, nil
	}
	if r.Deprecated != "" {
		return fmt.Sprintf("%s (deprecated)\n%s\n\n%s\n", r.ID, Summary(r.Info()), invoked.Mentions(r.Deprecated)), true, nil
	}
	doc, err := lint.Explain(id)
	if err != nil {
		return "", true, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s)\n%s\nSince wop %s.\n\n%s\n\n%s\n", r.ID, r.Severity, invoked.Mentions(r.Summary), r.Since,
		invoked.Mentions(strings.TrimSpace(doc.Prose)), invoked.Mentions(r.ConfigNote()))
	section := func(title string, files []lint.ExampleFile) {
		fmt.Fprintf(&b, "\n%s:\n", title)
		for _, f := range files {
			fmt.Fprintf(&b, "  -- %s --\n", f.Name)
			if binary(f.Data) { // a WASM module: its bytes would drive the terminal
				fmt.Fprintf(&b, "  (%d bytes of binary data: % x)\n", len(f.Data), f.Data[:min(len(f.Data), 16)])
				continue
			}
			for _, line := range strings.Split(strings.TrimRight(f.Data, "\n"), "\n") {
				fmt.Fprintf(&b, "  %s\n", line)
			}
		}
	}
	if property != "" && !strings.Contains(strings.ToLower(doc.Want), strings.ToLower(property)) {
		fmt.Fprintf(&b, "\nThe rule's example is about another property: %s\n", invoked.Cmd("pack lint --explain "+r.ID))
		return b.String(), true, nil
	}
	section("Bad", doc.Bad)
	fmt.Fprintf(&b, "\nwop says:\n")
	for _, line := range strings.Split(strings.TrimRight(invoked.Mentions(doc.Want), "\n"), "\n") { // as the text report prints it
		fmt.Fprintf(&b, "  %s\n", line)
	}
	section("Fixed", doc.Good)
	return b.String(), true, nil
}

// Summary is a rule's summary, led by a deprecation note when it has one.
func Summary(r diag.RuleInfo) string {
	switch {
	case r.Deprecated != "" && r.ReplacedBy != "":
		return fmt.Sprintf("DEPRECATED, use %s: %s", r.ReplacedBy, r.Summary)
	case r.Deprecated != "":
		return "DEPRECATED: " + r.Summary
	}
	return r.Summary
}

// binary reports whether an example file holds control characters other
// than tab, newline and carriage return.
func binary(data string) bool {
	return strings.ContainsFunc(data, func(r rune) bool { return r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0x7f })
}
