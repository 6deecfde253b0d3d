//go:build wopbench

// Command registry serves the in-process test registry on loopback for
// benchmarks: bench/publish.sh publishes to it from a separate wop process.
// Usage: go run -tags wopbench ./bench/registry TOKEN KEY_ID PUBLIC.pem NAMESPACE
//
// The wopbench tag keeps it out of ./... at the repository root, which is
// what pre-commit's golang language installs (`go install ./...`): the
// hook builds wop and wop-sigstore, not this.
package main

import (
	"fmt"
	"os"
	"os/signal"

	"github.com/wop-cli/wop/internal/registry/registrytest"
	"github.com/wop-cli/wop/internal/sign"
)

func main() {
	if len(os.Args) != 5 {
		fmt.Fprintln(os.Stderr, "usage: registry TOKEN KEY_ID PUBLIC.pem NAMESPACE")
		os.Exit(2)
	}
	raw, err := os.ReadFile(os.Args[3])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	pub, err := sign.ParsePublicKey(raw)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	srv := registrytest.New(os.Args[1])
	defer srv.Close()
	srv.AddKey(os.Args[2], registrytest.Key{Public: pub, Namespaces: []string{os.Args[4]}})
	fmt.Println(srv.URL)
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, os.Interrupt)
	<-stop
}
