package migrate

import (
	"fmt"
	"io"

	"github.com/rogpeppe/go-internal/diff"
	"github.com/wop-cli/wop/internal/atomicfile"
)

// Finish ends a migration as `wop pack migrate` does: each note on errOut
// at its place in the file as it stands afterwards (the migrated one, or
// with showDiff the one on disk), then the change: written over pack.json,
// or with showDiff printed on out as a unified diff, or "already v2". It
// returns how many notes it left for a person.
func (r *Result) Finish(showDiff bool, out, errOut io.Writer) (int, error) {
	after := r.After
	if showDiff {
		after = r.Before
	}
	at, err := r.Locate(after)
	if err != nil {
		return 0, err
	}
	for i, n := range r.Notes {
		fmt.Fprintf(errOut, "%s:%d:%d: %s: %s\n", r.shown, at[i].Line, at[i].Column, n.Pointer, n.Message)
	}
	switch {
	case string(r.After) == string(r.Before):
		if len(r.Notes) == 0 {
			fmt.Fprintf(errOut, "%s is already v2: nothing to change\n", r.shown)
		}
	case showDiff:
		_, err = out.Write(diff.Diff("a/"+r.shown, r.Before, "b/"+r.shown, r.After))
	default:
		if err := atomicfile.Replace(r.Path, r.After); err != nil {
			return len(r.Notes), fmt.Errorf("write %s: %w", r.shown, err)
		}
		fmt.Fprintf(errOut, "migrated %s to v2\n", r.shown)
	}
	return len(r.Notes), err
}
