// Command wop is the pack author's CLI for OpenWOP.
package main

import (
	"context"
	"os"
	"os/signal"

	"github.com/wop-cli/wop/cmd/wop/internal/cli"
	"github.com/wop-cli/wop/cmd/wop/internal/root"
)

// version is set at release time by -ldflags "-X main.version=...".
var version = "dev"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := root.Main(ctx, os.Args[1:], cli.System(version))
	stop()
	os.Exit(code)
}
