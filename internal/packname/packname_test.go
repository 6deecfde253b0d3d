package packname

import (
	"regexp"
	"strings"
	"testing"
)

// pattern is the manifest schemas' name pattern (v1 and v2 alike).
var pattern = regexp.MustCompile(`^(core|vendor|community|private)\.[a-z][a-z0-9_-]*(\.[a-z][a-zA-Z0-9_-]*)+$`)

func TestProblem(t *testing.T) {
	for _, c := range []struct{ name, want string }{
		{"community.acme.demo", ""},
		{"core.openwop.agents.audit-summarizer", ""},
		{"vendor.acme.myPack", ""},
		{"", "the name is empty"},
		{"Community.Acme", `the first part "Community" must be lower case`},
		{"acme.demo.x", `the first part "acme" is not one of core, vendor, community or private`},
		{"community.acme", `"community.acme" has 2 parts; a name has at least three: <namespace>.<owner>.<pack>`},
		{"community..demo", `part 2 "" is empty (two dots in a row, or a dot at an end)`},
		{"community.acme.demo.", `part 4 "" is empty`},
		{"community.Acme.demo", `part 2 "Acme" starts with 'A'; a part starts with a lower-case letter a-z`},
		{"community.aCme.demo", `part 2 "aCme" has the upper-case letter 'C'; the owner part is lower case`},
		{"community.acme.1demo", `part 3 "1demo" starts with '1'`},
		{"community.acme.de mo", `part 3 "de mo" has ' '; a part holds only letters a-z, digits, - and _`},
		{"community.acme.démo", `part 3 "démo" has 'é'`},
	} {
		got := Problem(c.name, Tiers)
		if c.want == "" {
			if got != "" {
				t.Errorf("Problem(%q) = %q, want valid", c.name, got)
			}
			continue
		}
		if !strings.HasPrefix(got, c.want) || !strings.HasSuffix(got, "; "+Advice) {
			t.Errorf("Problem(%q) = %q, want it to start %q and end with the advice", c.name, got, c.want)
		}
	}
}

func TestAuthorTiersRefuseCore(t *testing.T) {
	if got := Problem("core.acme.demo", AuthorTiers); !strings.HasPrefix(got, `the first part "core" is not one of vendor, community or private`) {
		t.Errorf("core under AuthorTiers: %q", got)
	}
}

// FuzzProblemAgreesWithPattern: a name is valid in words exactly when the
// schemas' pattern matches it.
func FuzzProblemAgreesWithPattern(f *testing.F) {
	for _, s := range []string{"community.acme.demo", "Community.Acme", "core.a.B", "vendor.a-b.c_d9", "private.x..y", "community.a.b.c.d", "a"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		if valid := Problem(name, Tiers) == ""; valid != pattern.MatchString(name) {
			t.Errorf("Problem(%q) valid=%v, pattern says %v", name, valid, !valid)
		}
	})
}
