package lint

import (
	"testing"

	"github.com/wop-cli/wop/internal/diag"
)

// TestBaselineEntryAbsorbsOneFinding: each entry accepts exactly one
// finding, so a second copy of an accepted mistake is new and counts.
func TestBaselineEntryAbsorbsOneFinding(t *testing.T) {
	dup := diag.Diagnostic{Rule: "json-duplicate-key", Severity: diag.Error, File: "p/pack.json", Pointer: "/name", Message: "duplicate key"}
	other := dup
	other.Pointer = "/version"
	moved := dup
	moved.Start = diag.Position{Line: 40, Column: 3} // lines may move
	tests := []struct {
		name      string
		baseline  []diag.Diagnostic
		findings  []diag.Diagnostic
		wantLeft  int
		wantTaken int
	}{
		{"one entry, one finding", []diag.Diagnostic{dup}, []diag.Diagnostic{dup}, 0, 1},
		{"one entry, two findings", []diag.Diagnostic{dup}, []diag.Diagnostic{dup, dup}, 1, 1},
		{"one entry, five findings", []diag.Diagnostic{dup}, []diag.Diagnostic{dup, dup, dup, dup, dup}, 4, 1},
		{"two entries, three findings", []diag.Diagnostic{dup, dup}, []diag.Diagnostic{dup, dup, dup}, 1, 2},
		{"another pointer", []diag.Diagnostic{dup}, []diag.Diagnostic{other}, 1, 0},
		{"moved line", []diag.Diagnostic{dup}, []diag.Diagnostic{moved}, 0, 1},
		{"empty baseline", nil, []diag.Diagnostic{dup}, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			left, taken := NewBaseline(tt.baseline).Filter(tt.findings)
			if len(left) != tt.wantLeft || taken != tt.wantTaken {
				t.Errorf("left %d, accepted %d; want %d, %d", len(left), taken, tt.wantLeft, tt.wantTaken)
			}
		})
	}
}
