package breaking

import (
	"fmt"
	"io"

	"github.com/wop-cli/wop/internal/report"
)

// WriteVerdict says, under a text report, what the changes need and what
// the version makes, and why the comparison is incomplete if it is.
func (r *Result) WriteVerdict(w io.Writer, incomplete *report.Incomplete) {
	fmt.Fprintf(w, "%s -> %s: the changes need %s, the version makes %s", r.OldVersion, r.NewVersion, bumpWord(r.Needed), bumpWord(r.Made))
	if r.Accepted > 0 {
		fmt.Fprintf(w, " (%d accepted in .wop.yaml)", r.Accepted)
	}
	fmt.Fprintln(w)
	if incomplete != nil {
		fmt.Fprintln(w, incomplete.Message)
	}
}

func bumpWord(b Bump) string {
	if b == None {
		return "no bump"
	}
	return "a " + b.String() + " bump"
}
