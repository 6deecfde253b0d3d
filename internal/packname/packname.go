// Package packname says in words what is wrong with a pack name, so that
// `wop pack init` and lint explain the same mistake the same way instead of
// printing the schemas' pattern.
package packname

import (
	"fmt"
	"slices"
	"strings"

	"github.com/wop-cli/wop/internal/suggest"
)

// Tiers are the namespaces a pack name may start with, as the OpenWOP
// manifest schemas allow them. core is the working group's.
var Tiers = []string{"core", "vendor", "community", "private"}

// AuthorTiers are the namespaces an author outside the working group
// publishes under: what `wop pack init` accepts.
var AuthorTiers = []string{"vendor", "community", "private"}

// Advice is how to write a pack name, for the end of every problem.
const Advice = "use community.<you>.<pack>, vendor.<org>.<pack> or private.<host>.<pack> (lower case, dots between parts)"

// Problem says what makes name an invalid pack name under the given tiers,
// and how to write one; "" when name is valid. It follows the schemas'
// pattern ^(tier)\.[a-z][a-z0-9_-]*(\.[a-z][a-zA-Z0-9_-]*)+$ part by part.
func Problem(name string, tiers []string) string {
	if what := fault(name, tiers); what != "" {
		return what + "; " + Advice
	}
	return ""
}

// IDProblem says what makes id break the grammar pack names share with the
// ids a v1 pack declares (an agentId is <pack name>.<agent>), without the
// advice on naming a pack; "" when id follows it.
func IDProblem(id string, tiers []string) string { return fault(id, tiers) }

// fault is the first thing wrong with name, in words.
func fault(name string, tiers []string) string {
	if name == "" {
		return "the name is empty"
	}
	parts := strings.Split(name, ".")
	if !slices.Contains(tiers, parts[0]) {
		if slices.Contains(tiers, strings.ToLower(parts[0])) {
			return fmt.Sprintf("the first part %q must be lower case", parts[0])
		}
		return fmt.Sprintf("the first part %q is not one of %s", parts[0], suggest.OrList(tiers))
	}
	if len(parts) < 3 {
		return fmt.Sprintf("%q has %d parts; a name has at least three: <namespace>.<owner>.<pack>", name, len(parts))
	}
	for i, part := range parts[1:] {
		if what := partFault(part, i == 0); what != "" {
			return fmt.Sprintf("part %d %q %s", i+2, part, what)
		}
	}
	return ""
}

// partFault says what is wrong with one part after the namespace. The owner
// part (the second) is all lower case; later parts may use upper case
// letters after the first.
func partFault(part string, owner bool) string {
	if part == "" {
		return "is empty (two dots in a row, or a dot at an end)"
	}
	if c := part[0]; c < 'a' || c > 'z' {
		return fmt.Sprintf("starts with %q; a part starts with a lower-case letter a-z", rune(c))
	}
	for _, r := range part {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-', r == '_':
		case r >= 'A' && r <= 'Z' && !owner:
		case r >= 'A' && r <= 'Z':
			return fmt.Sprintf("has the upper-case letter %q; the owner part is lower case", r)
		default:
			return fmt.Sprintf("has %q; a part holds only letters a-z, digits, - and _", r)
		}
	}
	return ""
}
