package cli

import (
	"runtime/debug"
	"testing"
)

func TestVersion(t *testing.T) {
	info := func(v string, ok bool) func() (*debug.BuildInfo, bool) {
		return func() (*debug.BuildInfo, bool) { return &debug.BuildInfo{Main: debug.Module{Version: v}}, ok }
	}
	tests := []struct {
		name, injected string
		read           func() (*debug.BuildInfo, bool)
		want           string
	}{
		{"injected wins", "1.2.3", info("v9.9.9", true), "1.2.3"},
		{"go install @version", "", info("v0.1.0", true), "v0.1.0"},
		{"checkout build", "", info("v0.0.0-20261123203000-abcdef123456+dirty", true), "v0.0.0-20261123203000-abcdef123456+dirty"},
		{"no module version", "", info("(devel)", true), "dev"},
		{"no build info", "", info("", false), "dev"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Version(tt.injected, tt.read); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
