package verify

import (
	"fmt"
	"io"
)

// WriteText writes the report as verify prints it: a header naming
// archive (as the user typed it), the pack and its integrity, then one
// line per check.
func (rep *Report) WriteText(w io.Writer, archive string) {
	header := fmt.Sprintf("%s: %s@%s", archive, rep.Name, rep.Version)
	if rep.Integrity.SRI != "" { // a VERSION.json alone has no archive to hash
		header += "  " + rep.Integrity.SRI
	}
	fmt.Fprintln(w, header)
	for _, c := range rep.Checks {
		status := "ok  "
		if !c.OK {
			status = "FAIL"
		}
		msg := c.Message
		if c.OK && c.Name == "signature" {
			msg = "pack.json is signed by " + rep.SignedBy
		}
		fmt.Fprintf(w, "  %s %-16s %s\n", status, c.Name, msg)
	}
}
