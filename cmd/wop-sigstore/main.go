// Command wop-sigstore is wop's Sigstore helper: it reads one JSON request
// (internal/sigstorehelper.Request) on stdin, signs or verifies with
// sigstore-go, and writes one JSON answer on stdout. wop runs it so that
// commands that do not use Sigstore do not pay for loading it.
package main

import (
	"github.com/wop-cli/wop/internal/helperbin"
	"github.com/wop-cli/wop/internal/sign/sigstore"
	"github.com/wop-cli/wop/internal/sigstorehelper"
)

// version is set at release time by -ldflags "-X main.version=...", as
// wop's is, so a mismatched helper can be told apart.
var version = "dev"

func main() {
	helperbin.Main(sigstorehelper.Name, version, sigstore.Serve, func(r sigstorehelper.Response) bool { return r.Error != "" })
}
