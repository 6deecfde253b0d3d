package lintrun

import (
	"fmt"
	"strings"

	"github.com/wop-cli/wop/internal/diag"
	"github.com/wop-cli/wop/internal/lint"
)

// Explain is `wop pack lint --explain id` over rules: summary, why, the bad
// example, what wop says about it and the fix; for a deprecated rule, what
// replaced it. found is false for an id rules do not hold.
func Explain(rules lint.Rules, id string) (text string, found bool, err error) {
	r := rules.Lookup(id)
	if r == nil {
		return "", false, nil
	}
	if r.Deprecated != "" {
		return fmt.Sprintf("%s (deprecated)\n%s\n\n%s\n", r.ID, Summary(r.Info()), r.Deprecated), true, nil
	}
	doc, err := lint.Explain(id)
	if err != nil {
		return "", true, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s)\n%s\nSince wop %s.\n\n%s\n", r.ID, r.Severity, r.Summary, r.Since, strings.TrimSpace(doc.Prose))
	if note := r.EnforcedNote(); note != "" {
		fmt.Fprintf(&b, "\n%s\n", note)
	}
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
	section("Bad", doc.Bad)
	fmt.Fprintf(&b, "\nwop says:\n")
	for _, line := range strings.Split(strings.TrimRight(doc.Want, "\n"), "\n") {
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
