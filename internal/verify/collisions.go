package verify

import (
	"fmt"

	"github.com/wop-cli/wop/internal/tarball"
	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// CollidingNames names entries that are one file on a case-insensitive or
// normalizing file system (macOS, Windows): "pack.json" and "Pack.json",
// or an NFC and an NFD spelling of one name. Extracting such an archive
// keeps only one of each pair, perhaps not the signed one, so verify
// refuses it as lint's path-unsafe rule refuses the source.
func CollidingNames(a *tarball.Archive) []string {
	fold := cases.Fold()
	seen := map[string]string{}
	var msgs []string
	for _, e := range a.Entries {
		name := e.Name
		// Unicode canonical caseless matching: NFD(fold(NFD(name))).
		key := norm.NFD.String(fold.String(norm.NFD.String(name)))
		if other, ok := seen[key]; ok {
			msgs = append(msgs, fmt.Sprintf("%q and %q are one file on macOS and Windows (they differ only in case or Unicode normalization): extracting keeps one of them, perhaps not the signed one", other, name))
			continue
		}
		seen[key] = name
	}
	return msgs
}
