// Command wop is the pack author's CLI for OpenWOP.
package main

import (
	"context"
	"os"
	"runtime/debug"

	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/cmd/wop/internal/root"
	"github.com/wop-cli/wop/internal/interrupt"
)

// version is set at release time by -ldflags "-X main.version=..."; when
// empty, the module version from the build info is used (cli.Version).
var version string

func main() {
	tuneGC(os.Getenv)
	ctx, stop := interrupt.Context(context.Background(), os.Exit)
	code := root.Main(ctx, os.Args[1:], cli.System(cli.Version(version, debug.ReadBuildInfo)))
	stop()
	os.Exit(code)
}

// tuneGC paces the collector for a short-lived process, unless the user set
// GOGC or GOMEMLIMIT, which win.
func tuneGC(getenv func(string) string) {
	// wop is short-lived and its heap small (a pack is capped at 50 MB);
	// collecting a quarter as often saves about a quarter of a lint run.
	// (A one-pack run never collects: the first cycle starts at 16 MB.)
	if getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	// That pacing alone lets garbage reach five times the live heap: a
	// lint of 1,000 packs peaks at about 70 MB of RSS, 50 MB under this
	// soft limit, which makes the collector run sooner only as the heap
	// nears it (one real pack stays far under). Not lower: a 50 MB
	// archive's entries are live while it is linted, and a limit below the
	// live heap makes the collector run continuously (that lint already
	// pays about 0.1 s of CPU for this one; see docs/performance.md).
	if getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(48 << 20)
	}
}
