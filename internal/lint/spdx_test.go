package lint

import (
	"strings"
	"testing"
)

func TestIsSPDX(t *testing.T) {
	tests := []struct {
		expr string
		want bool
	}{
		{"MIT", true},
		{"mit", true}, // ids match case-insensitively
		{"Apache-2.0", true},
		{"MPL-2.0", true},
		{"MPL-2.0-no-copyleft-exception", true},
		{"Unicode-3.0", true},
		{"GPL-3.0-or-later WITH GCC-exception-3.1", true},
		{"MIT OR Apache-2.0", true},
		{"(MIT AND Apache-2.0) OR BSD-3-Clause", true},
		{"Apache-2.0+", true},
		{"GPL-2.0", true}, // deprecated, still an id
		{"LicenseRef-Proprietary", true},
		{"DocumentRef-spdx-tool-1.2:LicenseRef-MIT-Style-2", true},
		{"", false},
		{"Proprietary", false},
		{"GPL", false},
		{"MIT AND", false},
		{"MIT WITH No-such-exception", false},
		{"apache-2.0 or mit", false}, // operators are upper case
		{"MIT/Apache-2.0", false},
	}
	for _, tt := range tests {
		if got := isSPDX(tt.expr); got != tt.want {
			t.Errorf("isSPDX(%q) = %v, want %v", tt.expr, got, tt.want)
		}
	}
}

// TestSPDXSuggestion: what a license was meant to be, and whether --fix
// may write it unasked (sure: one id respelt, not a GNU id).
func TestSPDXSuggestion(t *testing.T) {
	for _, c := range []struct {
		in, want string
		sure     bool
	}{
		{"Apache2", "Apache-2.0", true},
		{"Apache 2", "Apache-2.0", true},
		{"Apache 2.0", "Apache-2.0", true},
		{"Apache License, Version 2.0", "Apache-2.0", true},
		{"apache-2", "Apache-2.0", true},
		{"GPLv3", "GPL-3.0-only", false}, // -only or -or-later is the author's grant
		{"MIT License", "MIT", true},
		{"BSD-3-Clauses", "BSD-3-Clause", false}, // one edit away: a guess
		{"MIT OR Apache2", "MIT OR Apache-2.0", false},
		{"mit or apache-2.0", "mit OR apache-2.0", false},
		{"Proprietary", "", false},
		{"GPL", "", false},
		{"MIT/Apache-2.0", "", false},
		{"ab", "", false},
		{strings.Repeat("Apache2 OR ", 5000) + "MIT", "", false}, // a hostile value costs nothing
	} {
		got, sure, ok := spdxSuggestion(c.in)
		if c.want == "" {
			if ok {
				t.Errorf("spdxSuggestion(%q) = %q, want none", c.in, got)
			}
			continue
		}
		if !ok || got != c.want || sure != c.sure {
			t.Errorf("spdxSuggestion(%q) = %q, sure %v, %v; want %q, sure %v", c.in, got, sure, ok, c.want, c.sure)
		}
		if !isSPDX(got) {
			t.Errorf("suggestion %q for %q is not SPDX", got, c.in)
		}
	}
}
