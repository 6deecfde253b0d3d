package helperbin

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
)

// Main is a helper binary's main: `NAME --version` prints its name and
// version; otherwise it serves the one request on stdin (Ctrl-C cancels
// serve's context), writes the answer as JSON on stdout, and exits 1 when
// failed says the answer is an error, so wop can tell either way.
func Main[R any](name, version string, serve func(context.Context, io.Reader) R, failed func(R) bool) {
	if len(os.Args) == 2 && os.Args[1] == "--version" {
		fmt.Println(name, version)
		return
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	resp := serve(ctx, os.Stdin)
	stop()
	if err := json.NewEncoder(os.Stdout).Encode(resp); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if failed(resp) {
		os.Exit(1)
	}
}
