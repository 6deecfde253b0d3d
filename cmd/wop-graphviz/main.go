// Command wop-graphviz is wop's layout helper: it reads one JSON request
// (internal/graphviz.Request: a DOT graph and a layout) on stdin, lays it
// out with Graphviz, and writes one JSON answer with the SVG on stdout. wop
// runs it only to draw, so other commands never load Graphviz.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"

	"github.com/wop-cli/wop/internal/graphviz/engine"
)

// version is set at release time by -ldflags "-X main.version=...".
var version = "dev"

func main() {
	if len(os.Args) == 2 && os.Args[1] == "--version" {
		fmt.Println("wop-graphviz", version)
		return
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	resp := engine.Serve(ctx, os.Stdin)
	stop()
	if err := json.NewEncoder(os.Stdout).Encode(resp); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if resp.Error != "" {
		os.Exit(1)
	}
}
