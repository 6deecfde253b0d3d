package lint

import "testing"

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
