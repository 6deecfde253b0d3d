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

func main() {
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
