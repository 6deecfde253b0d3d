package main

import (
	"math"
	"runtime/debug"
	"testing"
)

// TestTuneGCLeavesTheUsersSettings: wop's GC pacing applies only when the
// user set neither GOGC nor GOMEMLIMIT.
func TestTuneGCLeavesTheUsersSettings(t *testing.T) {
	percent, limit := debug.SetGCPercent(100), debug.SetMemoryLimit(math.MaxInt64)
	t.Cleanup(func() { debug.SetGCPercent(percent); debug.SetMemoryLimit(limit) })
	tests := []struct {
		env         map[string]string
		wantPercent int
		wantLimit   int64
	}{
		{map[string]string{}, 400, 48 << 20},
		{map[string]string{"GOGC": "off"}, 100, 48 << 20},
		{map[string]string{"GOMEMLIMIT": "1GiB"}, 400, math.MaxInt64},
	}
	for _, tt := range tests {
		debug.SetGCPercent(100)
		debug.SetMemoryLimit(math.MaxInt64)
		tuneGC(func(k string) string { return tt.env[k] })
		if got := debug.SetGCPercent(100); got != tt.wantPercent {
			t.Errorf("%v: GC percent %d, want %d", tt.env, got, tt.wantPercent)
		}
		if got := debug.SetMemoryLimit(-1); got != tt.wantLimit {
			t.Errorf("%v: memory limit %d, want %d", tt.env, got, tt.wantLimit)
		}
	}
}
