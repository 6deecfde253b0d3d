// Command wop-sigstore is wop's Sigstore helper: it reads one JSON request
// (internal/sigstorehelper.Request) on stdin, signs or verifies with
// sigstore-go, and writes one JSON answer on stdout. wop runs it so that
// commands that do not use Sigstore do not pay for loading it.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"

	"github.com/wop-cli/wop/internal/sign/sigstore"
)

// version is set at release time by -ldflags "-X main.version=...", as
// wop's is, so a mismatched helper can be told apart.
var version = "dev"

func main() {
	if len(os.Args) == 2 && os.Args[1] == "--version" {
		fmt.Println("wop-sigstore", version)
		return
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	resp := sigstore.Serve(ctx, os.Stdin)
	stop()
	if err := json.NewEncoder(os.Stdout).Encode(resp); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if resp.Error != "" {
		os.Exit(1)
	}
}
