// Command wop is the pack author's CLI for OpenWOP.
package main

import (
	"context"
	"os"
	"runtime/debug"

	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/cmd/wop/internal/root"
)

// version is set at release time by -ldflags "-X main.version=..."; when
// empty, the module version from the build info is used (cli.Version).
var version string

func main() {
	// wop is short-lived and its heap small (a pack is capped at 50 MB);
	// collecting a quarter as often saves about a quarter of a lint run.
	debug.SetGCPercent(400)
	ctx, stop := cli.SignalContext(context.Background(), os.Exit)
	code := root.Main(ctx, os.Args[1:], cli.System(cli.Version(version, debug.ReadBuildInfo)))
	stop()
	os.Exit(code)
}
