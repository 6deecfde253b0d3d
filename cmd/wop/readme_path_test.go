package main

import (
	"os"
	"strings"
	"testing"
)

// TestReadmeSaysWhereGoInstallPutsWop: after `go install ./cmd/wop` a new
// user's shell says `wop: command not found`; the Install section says where
// the binary went and gives the PATH line.
func TestReadmeSaysWhereGoInstallPutsWop(t *testing.T) {
	raw, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, install, _ := strings.Cut(string(raw), "\n## Install\n")
	install, _, _ = strings.Cut(install, "\n## ")
	for _, want := range []string{"$(go env GOPATH)/bin", "~/go/bin", `export PATH="$PATH:$(go env GOPATH)/bin"`, "command not found"} {
		if !strings.Contains(install, want) {
			t.Errorf("README's Install section does not say %q", want)
		}
	}
}
