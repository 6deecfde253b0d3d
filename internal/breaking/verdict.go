package breaking

import "fmt"

// Verdict is the line under a text report: what the changes need and what
// the version makes, with the changes .wop.yaml accepted.
func (r *Result) Verdict() string {
	s := fmt.Sprintf("%s -> %s: the changes need %s, the version makes %s", r.OldVersion, r.NewVersion, bumpWord(r.Needed), bumpWord(r.Made))
	if r.Accepted > 0 {
		s += fmt.Sprintf(" (%d accepted in .wop.yaml)", r.Accepted)
	}
	return s
}

func bumpWord(b Bump) string {
	if b == None {
		return "no bump"
	}
	return "a " + b.String() + " bump"
}
