package invocation

import (
	"strings"
	"testing"
)

func TestCmd(t *testing.T) {
	tests := []struct {
		name, env, args, want string
	}{
		{"unset", "", "pack lint --fix", "wop pack lint --fix"},
		{"npx in a project", "npx wop", "pack lint --fix", "npx wop pack lint --fix"},
		{"npx fetched it", "npx @wop-cli/wop@1.2.3", "pack lint x", "npx @wop-cli/wop@1.2.3 pack lint x"},
		{"spaces trimmed", "  npx wop \n", "login", "npx wop login"},
		{"no args", "npx wop", "", "npx wop"},
		{"two lines ignored", "npx wop\nrm -rf", "pack lint", "wop pack lint"},
		{"escape ignored", "npx \x1b[31mwop", "pack lint", "wop pack lint"},
		{"too long ignored", "npx " + strings.Repeat("x", 100), "pack lint", "wop pack lint"},
		{"DEL ignored", "npx wop\x7f", "pack lint", "wop pack lint"},
		{"80 bytes kept", "npx " + strings.Repeat("x", 76), "login", "npx " + strings.Repeat("x", 76) + " login"},
		{"81 bytes ignored", "npx " + strings.Repeat("x", 77), "login", "wop login"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := FromEnv(func(k string) string {
				if k != EnvVar {
					t.Errorf("read %s", k)
				}
				return tt.env
			}).Cmd(tt.args)
			if got != tt.want {
				t.Errorf("Cmd(%q) = %q, want %q", tt.args, got, tt.want)
			}
		})
	}
	if got := FromEnv(nil).Cmd("x"); got != "wop x" {
		t.Errorf("nil getenv: %q", got)
	}
}

func TestMentions(t *testing.T) {
	const prose = "Fix: rebuild with wop pack build; `wop pack lint --fix` does. wop checks it; openwop packs; Since wop 0.1.0; wop's cache; see wop help exit-codes."
	if got := Name("").Mentions(prose); got != prose {
		t.Errorf("unset: %q", got)
	}
	want := "Fix: rebuild with npx wop pack build; `npx wop pack lint --fix` does. wop checks it; openwop packs; Since wop 0.1.0; wop's cache; see npx wop help exit-codes."
	if got := Name("npx wop").Mentions(prose); got != want {
		t.Errorf("npx wop:\n got %q\nwant %q", got, want)
	}
	if got := Name("a$1b").Mentions("run wop pack lint"); got != "run a$1b pack lint" {
		t.Errorf("a name with $: %q", got)
	}
}
