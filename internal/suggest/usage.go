package suggest

import (
	"fmt"
	"slices"
	"strings"

	"github.com/wop-cli/wop/internal/exitcode"
)

// UnknownRule is the usage error for a rule id that does not exist, with
// the nearest one; rules names the command that lists them all ("wop pack
// rules", as the user runs wop).
func UnknownRule(id string, ids []string, rules string) error {
	if near, ok := Nearest(id, ids, 3); ok {
		return &exitcode.UsageError{Err: fmt.Errorf("no rule %q; did you mean %q? ('%s' lists them)", id, near, rules)}
	}
	return exitcode.Usagef("no rule %q; '%s' lists them", id, rules)
}

// FlagValue checks that a flag's value is one of allowed: otherwise a
// usage error naming the values, with the nearest one for a near miss
// (--format "sarf": ...; did you mean "sarif"?). Every flag that takes a
// fixed set of words (--format, --spec) checks it here, so they all answer
// alike.
func FlagValue(flag, value string, allowed ...string) error {
	if slices.Contains(allowed, value) {
		return nil
	}
	want := "one of " + strings.Join(allowed, ", ")
	if len(allowed) == 2 {
		want = allowed[0] + " or " + allowed[1]
	}
	if near, ok := Nearest(value, allowed, 2); ok && value != "" {
		return exitcode.Usagef("%s %q: want %s; did you mean %q?", flag, value, want, near)
	}
	return exitcode.Usagef("%s %q: want %s", flag, value, want)
}
