// Package invocation names the command a user typed to start wop, so that
// every hint tells them what to type next: "wop pack lint --fix" for a wop
// on PATH, "npx wop pack lint --fix" when npm's entry point started it.
package invocation

import (
	"strings"

	"github.com/wop-cli/wop/internal/regex"
)

// EnvVar is the environment variable npm's entry point (npm/wop/bin/wop)
// sets to the command that reaches it: "npx wop" in a project that
// installs @wop-cli/wop, "npx @wop-cli/wop@X.Y.Z" where npx fetched it.
const EnvVar = "WOP_INVOKED_AS"

// maxLen bounds what is taken from the environment: a command, not a
// paragraph.
const maxLen = 80

// Name is the command that starts wop, as a user types it. The zero value
// is "wop".
type Name string

// FromEnv reads EnvVar through getenv (nil: not set). A value that is not
// one line of printable text, or too long to be a command, is ignored:
// hints then say "wop".
func FromEnv(getenv func(string) string) Name {
	if getenv == nil {
		return ""
	}
	v := strings.TrimSpace(getenv(EnvVar))
	if len(v) > maxLen || strings.IndexFunc(v, func(r rune) bool { return r < ' ' || r == 0x7f }) >= 0 {
		return ""
	}
	return Name(v)
}

// String is the command itself: "wop" unless set.
func (n Name) String() string {
	if n == "" {
		return "wop"
	}
	return string(n)
}

// Cmd is the command line that runs wop with args ("pack lint --fix"):
// the one function every hint that names a wop command formats through.
func (n Name) Cmd(args string) string {
	if args == "" {
		return n.String()
	}
	return n.String() + " " + args
}

// Commands are wop's top-level commands, space-separated: a mention of
// one after "wop" in prose is a command line (cmd/wop's tests check the
// list against the command tree).
const Commands = "pack agf key login logout cache lsp help completion exit-codes"

// mention matches "wop" starting a command line in prose: a word of its
// own, followed by one of Commands.
var mention = regex.Lazy(`\bwop( (?:` + strings.ReplaceAll(Commands, " ", "|") + `)\b)`)

// Mentions rewrites the command lines in text written for a wop on PATH
// to start with the command that started wop: "rebuild with wop pack
// build" reads "rebuild with npx wop pack build"; other mentions of wop
// ("wop checks it") are left alone, and so is s for the zero Name. Text
// that is kept or shared says plain wop and is rewritten where a person
// reads it: a finding's message (lint's cache, baselines, json and sarif
// keep wop's own words), a rule's explanation (docs/rules.md prints it as
// it is), a registry error code's fix.
func (n Name) Mentions(s string) string {
	if n == "" || n == "wop" {
		return s
	}
	return mention().ReplaceAllString(s, strings.ReplaceAll(n.String(), "$", "$$")+"$1")
}
