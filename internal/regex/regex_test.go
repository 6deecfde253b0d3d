package regex

import (
	"strings"
	"testing"
)

func TestCompile(t *testing.T) {
	tests := []struct {
		expr, lacks string
		invalid     bool
	}{
		{`^draft`, "", false},
		{`^(?=.*\d)\w+$`, "lookahead", false},
		{`^(?!tmp)`, "lookahead", false},
		{`(?<=\$)\d+`, "lookbehind", false},
		{`(?<!x)y`, "lookbehind", false},
		{`(a)\1`, "backreference", false},
		{`(?<q>a)\k<q>`, "named backreference", false},
		{`^[\u0000-\u007F]*$`, `\u escape`, false},
		{`(?<name>a)`, "", false},
		{`(unclosed`, "", true},
		{`a**`, "", true},
		{`\q`, "", true},
	}
	for _, tt := range tests {
		re, lacks, err := Compile(tt.expr)
		if (err != nil) != tt.invalid || !strings.HasPrefix(lacks, tt.lacks) || (tt.lacks == "") != (lacks == "") {
			t.Errorf("Compile(%q) = lacks %q, err %v; want lacks %q, invalid %v", tt.expr, lacks, err, tt.lacks, tt.invalid)
		}
		if (re != nil) != (err == nil && lacks == "") {
			t.Errorf("Compile(%q): a regexp must come back exactly when it compiled", tt.expr)
		}
	}
}

// FuzzCompile: every pattern gets exactly one verdict (compiled, cannot be
// checked, or invalid), and "cannot be checked" never hides a pattern RE2
// accepts.
func FuzzCompile(f *testing.F) {
	for _, s := range []string{`^a`, `(?=a)`, `(?<!b)`, `\1`, `\k<a>`, `\u00e9`, `\c`, `(`, `[`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, expr string) {
		re, lacks, err := Compile(expr)
		verdicts := 0
		for _, v := range []bool{re != nil, lacks != "", err != nil} {
			if v {
				verdicts++
			}
		}
		if verdicts != 1 {
			t.Fatalf("%q: re=%v lacks=%q err=%v", expr, re, lacks, err)
		}
	})
}

func TestLazyCompilesOnFirstUse(t *testing.T) {
	bad := Lazy("(") // an invalid expression costs nothing until used
	re := Lazy(`^a+$`)
	first := re()
	if !first.MatchString("aa") || re() != first {
		t.Error("Lazy does not compile its expression once")
	}
	defer func() {
		if recover() == nil {
			t.Error("an invalid expression does not panic on first use")
		}
	}()
	bad()
}
